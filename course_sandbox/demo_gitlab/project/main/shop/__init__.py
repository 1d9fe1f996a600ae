"""A small online shop used as the demo project of the agent-loop course."""
