-- Drives `warplint lsp` from Neovim (0.7's client API), headless: opens
-- $LSP_FILE, waits for the diagnostics of the buffer's current version,
-- checks their shape, applies each quickfix code action as an editor would
-- (one at a time, re-analysis in between), writes the buffer and stops the
-- server. Run by tests/e2e/test_lsp_neovim.sh; any failure exits 1 with
-- a reason on stdout.
local warplint = os.getenv('WARPLINT')
local file = os.getenv('LSP_FILE')
local root = os.getenv('LSP_ROOT')
local timeout = 240000

local function finish(code, message)
  if message then print(message) end
  io.stdout:flush()
  os.exit(code)
end
local function check(cond, message)
  if not cond then finish(1, 'FAIL: ' .. message) end
end

local published = {} -- version -> diagnostics, as the server sent them
local exit_code = nil
local client_id = vim.lsp.start_client({
  name = 'warplint',
  cmd = { warplint, 'lsp', '--no-cuda-toolkit' },
  root_dir = root,
  flags = { debounce_text_changes = 50 },
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      published[result.version or -1] = result.diagnostics
      return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    end,
  },
  on_exit = function(code, _) exit_code = code end,
})
check(client_id, 'the client did not start')

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
check(vim.lsp.buf_attach_client(bufnr, client_id), 'could not attach the client')

-- The diagnostics of what the buffer holds now.
local function current_diagnostics()
  local version
  check(vim.wait(timeout, function()
    version = vim.lsp.util.buf_versions[bufnr]
    return version ~= nil and published[version] ~= nil
  end, 50), 'no diagnostics for version ' .. tostring(version) .. ' within the timeout')
  return published[version], version
end

local diagnostics = current_diagnostics()
local conflicts = 0
for _, d in ipairs(diagnostics) do
  check(d.severity ~= 1, 'an error diagnostic (did the compile database apply?): ' .. d.message)
  if d.code == 'shared-bank-conflict' then
    conflicts = conflicts + 1
    -- warning (2), or note (3) where the rules grade it so (as check prints it)
    check(d.severity == 2 or d.severity == 3, 'bank conflict severity ' .. tostring(d.severity))
    check(d.codeDescription and d.codeDescription.href:match('docs/rules/shared%-bank%-conflict%.md$'),
      'no codeDescription.href to the rule doc')
    check(d.relatedInformation and #d.relatedInformation > 0, 'no related information for the notes')
    check(d.range['end'].line > d.range.start.line or d.range['end'].character > d.range.start.character,
      'empty range')
  end
end
check(conflicts > 0, 'no shared-bank-conflict diagnostic; got ' .. vim.inspect(diagnostics))
print('diagnostics: ' .. #diagnostics .. ', bank conflicts: ' .. conflicts)

-- Apply quickfixes until none is offered; each edit changes the buffer,
-- which the client sends, which the server re-analyzes.
local applied = 0
while true do
  local offered = nil
  for _, d in ipairs(current_diagnostics()) do
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = d.range,
      context = { diagnostics = { d } },
    }
    local replies = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, timeout)
    check(replies and replies[client_id], 'no reply to textDocument/codeAction')
    check(not replies[client_id].error, 'codeAction error: ' .. vim.inspect(replies[client_id].error))
    for _, action in ipairs(replies[client_id].result or {}) do
      check(action.kind == 'quickfix', 'action kind ' .. tostring(action.kind))
      offered = action
      break
    end
    if offered then break end
  end
  if not offered then break end
  check(applied < 10, 'fixes keep being offered: ' .. offered.title)
  print('applying: ' .. offered.title)
  vim.lsp.util.apply_workspace_edit(offered.edit, 'utf-16')
  applied = applied + 1
end
check(applied > 0, 'no code action was offered')
vim.cmd('write')

-- After the fixes the conflict is gone from the diagnostics too.
for _, d in ipairs(current_diagnostics()) do
  -- (notes for other plausible block shapes may remain, as with check)
  check(d.code ~= 'shared-bank-conflict' or d.severity ~= 2, 'the conflict is still reported after the fix: ' .. d.message)
end

vim.lsp.stop_client(client_id)
check(vim.wait(timeout, function() return exit_code ~= nil end, 50), 'the server did not exit')
check(exit_code == 0, 'server exit status ' .. tostring(exit_code) .. ' after shutdown and exit')
finish(0, 'applied ' .. applied .. ' fix(es); server exited 0')
