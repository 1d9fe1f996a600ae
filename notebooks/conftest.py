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

os.environ.clear()
os.environ.update(_build.clean_env())


def _started_again_if_it_died(start):
    """nbval's kernel start, tried up to three times when the kernel dies before it answers kernel_info.
    No cell has run then, so nothing the notebook does is retried: what dies is the start itself (two test
    workers start kernels and servers at once, and a port jupyter_client chose for the kernel can be taken
    before the kernel binds it; seen once in about ten full runs)."""

    def start_new_kernel(*args, **kwargs):
        for attempt in range(3):
            try:
                return start(*args, **kwargs)
            except RuntimeError as error:
                if "Kernel died before replying to kernel_info" not in str(error) or attempt == 2:
                    raise

    return start_new_kernel


nbval.kernel.start_new_kernel = _started_again_if_it_died(nbval.kernel.start_new_kernel)
