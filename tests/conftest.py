import pytest

from course_agent.sandbox import Sandbox


@pytest.fixture
def sandbox():
    with Sandbox() as sb:
        yield sb


@pytest.fixture
def client(sandbox):
    return sandbox.client(max_retries=0)
