"""Strict nbval runs the notebooks offline, as notebooks/build.py executed them.

The kernels nbval starts inherit this process's environment, so it is set here, before any
kernel starts: no API key, no GitLab variables, the sandbox forced, approvals answered
automatically (the saved outputs were made with the same settings).
"""

import os

from build import clean_env

os.environ.clear()
os.environ.update(clean_env())
