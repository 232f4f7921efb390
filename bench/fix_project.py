#!/usr/bin/env python3
"""Do warplint's fixes still compile? (a measurement, not a test)

Applies `warplint check -p BUILD --fix` to a project, finds every file the
fixes changed, and compiles every translation unit they affect with its own
compile command from compile_commands.json (nvcc, all its flags), then looks
in each object for a call to a function it defines only under other parameter
types (a declaration a signature fix missed; without -rdc that fails only at
link time). Prints the counts and the first error of each failing unit.
Target: every affected unit compiles.

A unit is affected when its source file changed, or when the source file
names a changed header in an #include (by file name). The project is edited
in place, so work on a copy: --copy-to DIR copies SOURCE_ROOT there (the
build directory must lie inside SOURCE_ROOT) and rewrites the paths in the
copy's compile_commands.json and response files to point at it.

usage: bench/fix_project.py [--warplint build/bin/warplint] [--copy-to DIR]
                            [--one-arch sm_90] [-j 2] [--fix-jobs 1] SOURCE_ROOT BUILD_DIR
       bench/fix_project.py ... --units-out UNITS.json SOURCE_ROOT BUILD_DIR   (fix only)
       bench/fix_project.py [-j 16] --compile-units UNITS.json SOURCE_ROOT     (compile only,
           SOURCE_ROOT being where the fixed copy now lies, e.g. on a bigger machine)
"""
import argparse, concurrent.futures, hashlib, json, os, re, shlex, shutil, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_EXT = (".cu", ".cuh", ".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".inl")


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def snapshot(tree):
    out = {}
    for d, dirs, files in os.walk(tree):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for name in files:
            if name.endswith(SOURCE_EXT):
                p = os.path.join(d, name)
                out[p] = digest(p)
    return out


def copy_project(src, dest, build):
    if os.path.exists(dest):
        sys.exit("%s exists; remove it or pick another --copy-to" % dest)
    rel = os.path.relpath(build, src)
    if rel.startswith(".."):
        sys.exit("the build directory %s is not inside %s" % (build, src))
    shutil.copytree(src, dest, symlinks=True)
    new_build = os.path.join(dest, rel)
    # Response files and the database name the original tree.
    for d, _, files in os.walk(new_build):
        for name in files:
            if name == "compile_commands.json" or name.endswith(".rsp"):
                p = os.path.join(d, name)
                with open(p) as f:
                    text = f.read()
                with open(p, "w") as f:
                    f.write(text.replace(src.rstrip("/"), dest.rstrip("/")))
    return new_build


DECLARATION = re.compile(r"__global__[^;{}]*\)\s*;", re.S)


def declares_kernel(path):
    """The file, or a header it includes with quotes (one level), declares a kernel without its body."""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return False
    if DECLARATION.search(text):
        return True
    for inc in re.findall(r'#\s*include\s*"([^"]+)"', text):
        h = os.path.join(os.path.dirname(path), inc)
        if os.path.exists(h) and DECLARATION.search(open(h, errors="replace").read()):
            return True
    return False


def arguments(entry):
    return entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])


def one_arch(args, arch):
    """The command with its -gencode/-arch list replaced by one real arch (speed)."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-gencode", "--generate-code", "-arch", "--gpu-architecture"):
            skip = True
            continue
        if re.match(r"^(-gencode|--generate-code|-arch|--gpu-architecture)=", a):
            continue
        out.append(a)
    return out[:1] + ["-arch=" + arch] + out[1:]


KERNEL_NAME = re.compile(r"__global__\s[^;{}()]*?(\w+)\s*\(")


def overload_mismatch(obj, cwd, kernels):
    """A function the object calls but does not define while defining one of
    the same name with other parameter types: a declaration the fix missed
    (without -rdc it only fails at link time, so compiling alone hides it)."""
    r = subprocess.run(["nm", "-C", obj], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    defined, undefined = {}, []
    for line in r.stdout.splitlines():
        m = re.match(r"^\s*(?:[0-9a-f]+\s+)?([A-Za-z])\s+(.+)$", line)
        if not m or "(" not in m.group(2):
            continue
        kind, sym = m.group(1), m.group(2)
        base = sym[:sym.index("(")]
        if base.split("::")[-1] not in kernels:
            continue  # only the kernels the changed files declare
        if kind == "U":
            undefined.append((base, sym))
        elif kind in "TtWw":
            defined.setdefault(base, set()).add(sym)
    for base, sym in undefined:
        if base in defined and sym not in defined[base]:
            return "calls %s but defines %s" % (sym, sorted(defined[base])[0])
    return ""


def compile_unit(entry, arch, kernels):
    args = arguments(entry)
    if arch:
        args = one_arch(args, arch)
    r = subprocess.run(args, cwd=entry["directory"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = next((l for l in r.stdout.splitlines() if "error" in l), r.stdout.strip()[:300])
    if r.returncode == 0 and "-o" in args:
        why = overload_mismatch(args[args.index("-o") + 1], entry["directory"], kernels)
        if why:
            return entry["file"], False, "links against an undefined overload: " + why
    return entry["file"], r.returncode == 0, first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warplint", default=os.path.join(root, "build", "bin", "warplint"))
    ap.add_argument("--copy-to", help="copy SOURCE_ROOT here and fix the copy")
    ap.add_argument("--one-arch", help="compile for this arch only instead of the command's list (speed)")
    ap.add_argument("-j", type=int, default=2, help="parallel compiles")
    ap.add_argument("--fix-jobs", type=int, default=1, help="parallel warplint processes over slices of the database")
    ap.add_argument("--only-declared-kernels", action="store_true",
                    help="only units that declare a __global__ function without its body, in the file or a "
                         "header it includes with quotes (the cases a signature fix must follow; for a slow machine)")
    ap.add_argument("--units-out", metavar="UNITS.json",
                    help="apply the fixes, write the affected units (commands, kernels, fix counts) here and stop; "
                         "compile them elsewhere with --compile-units (a machine with more cores)")
    ap.add_argument("--compile-units", metavar="UNITS.json",
                    help="compile the units a --units-out run wrote, with SOURCE_ROOT standing for the root they "
                         "were fixed under (BUILD_DIR is then ignored)")
    ap.add_argument("source_root")
    ap.add_argument("build_dir", nargs="?")
    a = ap.parse_args()
    if a.compile_units:
        return compile_and_report(load_units(a.compile_units, os.path.abspath(a.source_root)), a)
    if not a.build_dir:
        ap.error("BUILD_DIR is required unless --compile-units is given")
    src, build = os.path.abspath(a.source_root), os.path.abspath(a.build_dir)
    if a.copy_to:
        build = copy_project(src, os.path.abspath(a.copy_to), build)
        src = os.path.abspath(a.copy_to)
    with open(os.path.join(build, "compile_commands.json")) as f:
        db = json.load(f)

    before = snapshot(src)
    t0 = time.perf_counter()
    # --fix-jobs N: the database's files in N slices, one warplint each (a
    # header two slices both fix is written by the first; the second sees it
    # changed and leaves it, as warplint does for any file changed meanwhile).
    # The units warplint itself picks from a database: .cu files and -x cu commands.
    cuda = [e for e in db if e["file"].endswith(".cu") or re.search(r"(^|\s)(-x\s*cu|--x=cu)\b", " ".join(arguments(e)))]
    files = sorted({os.path.normpath(os.path.join(e["directory"], e["file"])) for e in cuda})
    if a.only_declared_kernels:
        files = [f for f in files if declares_kernel(f)]
    slices = [files[i::a.fix_jobs] for i in range(a.fix_jobs)] if a.fix_jobs > 1 else [[]]
    procs = [subprocess.Popen([os.path.abspath(a.warplint), "check", "-p", build, "--fix", "--color=never"] + part,
                              cwd=src, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for part in slices]
    log, codes = [], []
    for p in procs:
        log += p.communicate()[1].splitlines()
        codes.append(p.returncode)
    fix_seconds = time.perf_counter() - t0

    class R:
        returncode = max(codes)
    r = R()
    applied = sum(1 for l in log if l.startswith("warplint: fixed "))
    refused = [l for l in log if l.startswith("warplint: fix not applied")]
    after = snapshot(src)
    changed = sorted(p for p in after if before.get(p) != after[p])
    changed_set = set(changed)
    headers = {os.path.basename(p) for p in changed if not p.endswith((".cu", ".cpp", ".cc", ".cxx"))}

    def affected(entry):
        f = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        if f in changed_set:
            return True
        if not headers:
            return False
        with open(f, errors="replace") as s:
            text = s.read()
        return any(re.search(r'#\s*include\s*[<"]([^>"]*/)?' + re.escape(h) + r'[>"]', text) for h in headers)

    units = [e for e in db if affected(e)]
    kernels = set()
    for p in changed:
        kernels.update(KERNEL_NAME.findall(open(p, errors="replace").read()))
    reasons = {}
    for l in refused:
        why = l.split("]: ", 1)[-1]
        why = re.sub(r"\d+", "N", why.split(":")[0])
        reasons[why] = reasons.get(why, 0) + 1
    plan = {"source_root": src, "units": units, "kernels": sorted(kernels),
            "changed": [os.path.relpath(p, src) for p in changed],
            "headers_changed": sum(1 for p in changed if os.path.basename(p) in headers),
            "fix_exit": r.returncode, "fix_seconds": fix_seconds, "applied": applied,
            "not_applied": len(refused), "not_applied_reasons": reasons}
    if a.units_out:
        with open(a.units_out, "w") as f:
            json.dump(plan, f, indent=1)
        print("wrote %d affected units to %s; compile them with --compile-units" % (len(units), a.units_out))
        return 0
    return compile_and_report(plan, a)


def load_units(path, new_root):
    """A --units-out plan with its paths moved from the root it was fixed under to new_root."""
    with open(path) as f:
        text = f.read()
    old_root = json.loads(text)["source_root"].rstrip("/")
    plan = json.loads(text.replace(old_root, new_root.rstrip("/")))
    plan["source_root"] = new_root
    return plan


def compile_and_report(plan, a):
    src, kernels = plan["source_root"], set(plan["kernels"])
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
        for file, ok, first in pool.map(lambda e: compile_unit(e, a.one_arch, kernels), plan["units"]):
            results.append((file, ok, first))
    failed = [x for x in results if not x[1]]

    print("warplint --fix: exit %d in %.1f s; %d fixes applied, %d not applied" %
          (plan["fix_exit"], plan["fix_seconds"], plan["applied"], plan["not_applied"]))
    print("files changed: %d (%d headers)" % (len(plan["changed"]), plan["headers_changed"]))
    print("affected units compiled: %d of %d%s" %
          (len(results) - len(failed), len(results), " (one arch: %s)" % a.one_arch if a.one_arch else ""))
    for file, _, first in failed:
        print("  FAILED %s: %s" % (os.path.relpath(file, src), first))
    for why, n in sorted(plan["not_applied_reasons"].items(), key=lambda kv: -kv[1]):
        print("  not applied %3d: %s" % (n, why))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
