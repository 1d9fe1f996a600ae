"""Strict nbval runs the notebooks offline, as notebooks/build.py executed them.

The kernels nbval starts inherit this process's environment, so it is set here, before any
kernel starts: no API key, no GitLab variables, the sandbox forced, approvals answered
automatically (the saved outputs were made with the same settings).
"""

import importlib.util
import os
from pathlib import Path

import nbval.kernel

_spec = importlib.util.spec_from_file_location("course_notebooks_build", Path(__file__).with_name("build.py"))
_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_build)

_clean = _build.clean_env()  # read before clearing: clean_env filters os.environ (PATH, HOME, PYTHONPATH kept)
os.environ.clear()
os.environ.update(_clean)


# nbval's kernel start, tried again when the kernel dies before it answers (see build.started_again_if_it_dies)
nbval.kernel.start_new_kernel = _build.started_again_if_it_dies(nbval.kernel.start_new_kernel)
