"""Prompt-caching prices by model, in input-token prices: the one table every bill of the course reads.

Source: the pricing page, "Prompt caching" (https://platform.claude.com/docs/en/about-claude/pricing), as
#40's fact-check read it in 2026-12 (docs/facts.md, row cache-prices). A 5-minute cache write costs 1.25x an
input token and a 1-hour write 2x on every model; a cache read costs 0.1x, except on the models listed in
CACHE_READ, which read for less. A batch halves every price.
"""

CACHE_WRITE_5M = 1.25
CACHE_WRITE_1H = 2.0
BATCH = 0.5
CACHE_READ_DEFAULT = 0.1
CACHE_READ = {
    "claude-opus-5-5": 0.05,
    "claude-sonnet-5-5": 0.05,
    "claude-fable-5-1": 0.025,
    "claude-mythos-5-1": 0.025,
    "claude-fable-5-2": 0.025,  # $0.20 on $8 (the pricing page's Fable 5.2 row, as price trackers quote it)
    "claude-mythos-5-2": 0.025,
}
"""Models whose cache reads cost less than the usual tenth of an input token."""


def cache_read_rate(model: str | None) -> float:
    """What a cache read of `model` costs, in input-token prices (the usual 0.1x for a model not in the table,
    or when the model is not known)."""
    if not model:
        return CACHE_READ_DEFAULT
    return next((rate for name, rate in CACHE_READ.items() if model == name or model.startswith(name + "-2")),
                CACHE_READ_DEFAULT)
