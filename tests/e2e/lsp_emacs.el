;;; lsp_emacs.el --- drives `warplint lsp' from Emacs and eglot, in batch  -*- lexical-binding: t -*-

;; Run by tests/e2e/test_lsp_emacs.sh as `emacs --batch -l lsp_emacs.el'.
;; The client set-up is not written here: it is the elisp block of the
;; "Emacs (eglot)" section of docs/editors.md, evaluated as it stands, so the
;; documentation is what is tested.  Then, as a user would: open $LSP_FILE
;; (its compile_commands.json lies next to it), let eglot start the server,
;; wait for the shared-bank-conflict diagnostic in Flymake at the expected
;; line, run `eglot-code-actions' there and pick the padding fix, check the
;; padded declaration, wait for the re-analysis to drop the warning, save,
;; and shut the server down (it must exit by itself, with status 0).
;;
;; Environment: WARPLINT_DOCS (docs/editors.md), LSP_FILE, CONFLICT_LINE,
;; DECL_LINE, EXPECT_DECL (the padded declaration's text), LSP_TIMEOUT
;; (seconds for each wait).  `warplint' must be on PATH, as the docs say.
;; Exit status: 0 pass, 1 fail (a line "FAIL: reason" on stdout), 77 when
;; eglot is not installed.

(require 'cl-lib)
(require 'subr-x)

(defvar warplint-e2e-timeout (string-to-number (or (getenv "LSP_TIMEOUT") "60")))

(defun warplint-e2e-log (format-string &rest args)
  (princ (concat (apply #'format format-string args) "\n")))

(defvar warplint-e2e-server nil "The eglot server, once connected.")

(defun warplint-e2e-server-log ()
  "The server's stderr and the tail of eglot's event log, for a failure."
  (when (and warplint-e2e-server (jsonrpc-running-p warplint-e2e-server))
    (let ((stderr (jsonrpc-stderr-buffer warplint-e2e-server))
          (events (jsonrpc-events-buffer warplint-e2e-server)))
      (when (buffer-live-p stderr)
        (warplint-e2e-log "--- server stderr:\n%s"
                          (with-current-buffer stderr (buffer-string))))
      (when (buffer-live-p events)
        (warplint-e2e-log "--- eglot events (last 4000 characters):\n%s"
                          (with-current-buffer events
                            (buffer-substring-no-properties
                             (max (point-min) (- (point-max) 4000)) (point-max))))))))

(defun warplint-e2e-fail (format-string &rest args)
  (warplint-e2e-log "FAIL: %s" (apply #'format format-string args))
  (warplint-e2e-server-log)
  (kill-emacs 1))

(defun warplint-e2e-wait (what predicate &optional state)
  "Process events until PREDICATE holds; fail naming WHAT after the timeout.
STATE, a function, says what there is instead."
  (let ((deadline (+ (float-time) warplint-e2e-timeout)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (warplint-e2e-fail "timed out after %ss waiting for %s%s" warplint-e2e-timeout what
                           (if state (concat "; " (funcall state)) "")))
      (accept-process-output nil 0.05))))

(defun warplint-e2e-env (name)
  (or (getenv name) (warplint-e2e-fail "%s is not set" name)))

;; Any error escaping below is a failure with its message, not a backtrace
;; and exit 255.
(setq debug-on-error nil)

;;; Packages: interactive Emacs activates installed packages (Debian's
;;; elpa-eglot among them) after the init file; batch mode does not.
(package-activate-all)
(unless (locate-library "eglot")
  (warplint-e2e-log "SKIP: eglot is not installed (apt-get install elpa-eglot, or Emacs 29+)")
  (kill-emacs 77))

;;; The documented set-up.
(defun warplint-e2e-docs-elisp (docs)
  "The first elisp block after the \"## Emacs (eglot)\" heading of DOCS."
  (with-temp-buffer
    (insert-file-contents docs)
    (unless (re-search-forward "^## Emacs (eglot)" nil t)
      (warplint-e2e-fail "%s has no \"## Emacs (eglot)\" section" docs))
    (let ((section-end (save-excursion
                         (if (re-search-forward "^## " nil t) (point) (point-max)))))
      (unless (re-search-forward "^```elisp\n" section-end t)
        (warplint-e2e-fail "no ```elisp block in the Emacs section of %s" docs))
      (let ((start (point)))
        (unless (re-search-forward "^```$" section-end t)
          (warplint-e2e-fail "unterminated elisp block in %s" docs))
        (buffer-substring-no-properties start (match-beginning 0))))))

(let ((setup (warplint-e2e-docs-elisp (warplint-e2e-env "WARPLINT_DOCS"))))
  (warplint-e2e-log "evaluating the set-up of docs/editors.md:\n%s" setup)
  (with-temp-buffer
    (insert setup)
    (goto-char (point-min))
    (condition-case err
        (while (progn (forward-comment (buffer-size)) (not (eobp)))
          (eval (read (current-buffer)) t))
      (error (warplint-e2e-fail "the documented set-up does not evaluate: %S" err)))))

;; Capture what the server publishes, to say what did arrive on a timeout.
(defvar warplint-e2e-published 0)
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest _)
              (when (eq method 'textDocument/publishDiagnostics)
                (cl-incf warplint-e2e-published))))

;;; Open the file, as `find-file' would from the command loop.
(defvar warplint-e2e-file (warplint-e2e-env "LSP_FILE"))
(defvar warplint-e2e-conflict-line (string-to-number (warplint-e2e-env "CONFLICT_LINE")))
(defvar warplint-e2e-decl-line (string-to-number (warplint-e2e-env "DECL_LINE")))

(condition-case err
    (find-file warplint-e2e-file)
  (error (warplint-e2e-fail "opening %s: %S" warplint-e2e-file err)))
(warplint-e2e-log "major mode: %s" major-mode)
;; `eglot-ensure' connects from `post-command-hook' (the command loop runs it
;; after the command that opened the file); batch mode has no command loop.
(run-hooks 'post-command-hook)
(warplint-e2e-wait "eglot to connect" (lambda () (bound-and-true-p eglot--managed-mode)))
(setq warplint-e2e-server (eglot-current-server))
(warplint-e2e-log "connected: %s, command %S"
                  (jsonrpc-name warplint-e2e-server)
                  (process-command (jsonrpc--process warplint-e2e-server)))
(unless (member "lsp" (process-command (jsonrpc--process warplint-e2e-server)))
  (warplint-e2e-fail "the server was not started as `warplint lsp'"))

(defun warplint-e2e-lsp-diag (diag)
  "The LSP diagnostic behind Flymake diagnostic DIAG."
  (cdr (assoc 'eglot-lsp-diag (eglot--diag-data diag))))

(defun warplint-e2e-conflicts ()
  "Flymake's shared-bank-conflict diagnostics in the current buffer."
  (cl-remove-if-not (lambda (d) (equal (plist-get (warplint-e2e-lsp-diag d) :code)
                                       "shared-bank-conflict"))
                    (flymake-diagnostics)))

(defun warplint-e2e-show-diagnostics ()
  (mapconcat (lambda (d) (format "  line %d: %s" (line-number-at-pos (flymake-diagnostic-beg d))
                                 (flymake-diagnostic-text d)))
             (flymake-diagnostics) "\n"))

;;; The diagnostics, as Flymake shows them.
(defun warplint-e2e-state ()
  (format "%d publishDiagnostics received; Flymake has:\n%s"
          warplint-e2e-published (warplint-e2e-show-diagnostics)))

(warplint-e2e-wait "a shared-bank-conflict diagnostic in Flymake"
                   #'warplint-e2e-conflicts #'warplint-e2e-state)
(warplint-e2e-log "diagnostics:\n%s" (warplint-e2e-show-diagnostics))
(dolist (d (flymake-diagnostics))
  (when (eq (flymake-diagnostic-type d) 'eglot-error)
    (warplint-e2e-fail "an error diagnostic (did the compile database apply?): %s"
                       (flymake-diagnostic-text d))))
(let* ((conflict (car (warplint-e2e-conflicts)))
       (line (line-number-at-pos (flymake-diagnostic-beg conflict)))
       (lsp (warplint-e2e-lsp-diag conflict)))
  (unless (= line warplint-e2e-conflict-line)
    (warplint-e2e-fail "the conflict is at line %d, expected %d" line warplint-e2e-conflict-line))
  (unless (eq (flymake-diagnostic-type conflict) 'eglot-warning)
    (warplint-e2e-fail "the conflict is a %s, expected a warning" (flymake-diagnostic-type conflict)))
  (unless (string-match-p "\\[shared-bank-conflict\\]" (flymake-diagnostic-text conflict))
    (warplint-e2e-fail "the message does not name the rule: %s" (flymake-diagnostic-text conflict)))
  (unless (string-match-p "docs/rules/shared-bank-conflict\\.md\\'"
                          (or (plist-get (plist-get lsp :codeDescription) :href) ""))
    (warplint-e2e-fail "no codeDescription.href to the rule doc: %S" lsp))

  ;;; The fix: M-x eglot-code-actions at the finding, the user picking the
  ;;; padding action from the menu eglot offers.
  (goto-char (flymake-diagnostic-beg conflict))
  (let* ((offered (eglot-code-actions (point)))
         (titles (mapcar (lambda (a) (plist-get a :title)) offered))
         (padding (cl-find-if (lambda (a) (and (equal (plist-get a :kind) "quickfix")
                                               (string-match-p "\\bpad\\b" (plist-get a :title))))
                              offered))
         (menu nil))
    (warplint-e2e-log "code actions at line %d: %S" line titles)
    (unless padding
      (warplint-e2e-fail "no padding quickfix among the code actions: %S" titles))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq menu (mapcar #'car collection))
                 (plist-get padding :title)))
              ;; a keyboard command, not a mouse click: eglot asks in the
              ;; minibuffer instead of a pop-up menu
              (last-nonmenu-event ?\r))
      (condition-case err
          (call-interactively #'eglot-code-actions)
        (error (warplint-e2e-fail "eglot-code-actions: %S" err))))
    (warplint-e2e-log "applied: %s (menu: %S)" (plist-get padding :title) menu)))

(let ((decl (save-excursion
              (goto-char (point-min))
              (forward-line (1- warplint-e2e-decl-line))
              (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
      (expected (warplint-e2e-env "EXPECT_DECL")))
  (unless (string-match-p (regexp-quote expected) decl)
    (warplint-e2e-fail "line %d after the fix is %S, expected it to hold %S"
                       warplint-e2e-decl-line decl expected))
  (warplint-e2e-log "line %d now: %s" warplint-e2e-decl-line (string-trim decl)))

;;; The re-analysis of the edited buffer drops the warning.  Eglot sends the
;;; change when Emacs has been idle for `eglot-send-changes-idle-time';
;;; batch mode is never idle, so run that idle timer's work here.
(setq warplint-e2e-published 0)
(eglot--signal-textDocument/didChange)
(warplint-e2e-wait
 "the diagnostics of the fixed buffer"
 (lambda () (and (> warplint-e2e-published 0)
                 (not (cl-find 'eglot-warning (warplint-e2e-conflicts)
                               :key #'flymake-diagnostic-type))))
 #'warplint-e2e-state)
(warplint-e2e-log "after the fix:\n%s" (warplint-e2e-show-diagnostics))
(save-buffer)

;;; Shut down: eglot asks `shutdown', sends `exit', then deletes the process
;;; at once; let the server exit by itself first, to see its status.
(defvar warplint-e2e-exit nil "(STATUS . CODE) of the server process.")
(advice-add 'jsonrpc-shutdown :before
            (lambda (conn &rest _)
              (let ((proc (jsonrpc--process conn))
                    (deadline (+ (float-time) warplint-e2e-timeout)))
                (while (and (process-live-p proc) (< (float-time) deadline))
                  (accept-process-output nil 0.05))
                (setq warplint-e2e-exit (cons (process-status proc) (process-exit-status proc))))))
(condition-case err
    (eglot-shutdown warplint-e2e-server nil warplint-e2e-timeout)
  (error (warplint-e2e-fail "eglot-shutdown: %S" err)))
(unless (equal warplint-e2e-exit '(exit . 0))
  (warplint-e2e-fail "the server ended with %S after shutdown and exit, expected (exit . 0)"
                     warplint-e2e-exit))
(warplint-e2e-log "server exited 0")
(kill-emacs 0)
