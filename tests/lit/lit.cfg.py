# lit configuration for warplint's FileCheck tests. Each rule has a test file
# of positives and negatives; RUN lines pass -implicit-check-not so that any
# warning the file does not expect fails the test.
import os
import sys
import lit.formats

config.name = "warplint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.warplint_obj_root, "tests", "lit")
config.excludes = ["Inputs"]

llvm_bin = config.llvm_tools_dir
config.substitutions.append(("%warplint", os.path.join(config.warplint_obj_root, "bin", "warplint")))
config.substitutions.append(("%FileCheck", os.path.join(llvm_bin, "FileCheck")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%not", os.path.join(llvm_bin, "not")))
config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", "")])
# The analyzer must not depend on a terminal.
config.environment["TERM"] = "dumb"
# Findings must not depend on whether this machine has a toolkit: the default
# `--ptxas auto` would compile files with nvcc here and not in CI. Tests of
# --ptxas pass it explicitly, with their own --cache-dir.
config.environment["WARPLINT_PTXAS"] = "off"
config.environment["WARPLINT_CACHE_DIR"] = os.path.join(config.test_exec_root, "native-cache")
# --fix-verify-nvcc tests need a real nvcc.
if os.path.exists("/usr/local/cuda/bin/nvcc"):
    config.available_features.add("nvcc")
