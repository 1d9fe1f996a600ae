"""The mutation suite's gates with a clock of the loop's own on the approver, shorter than exercise 7's slow yes,
so a run shows each one (a clock longer than the check waits is not seen: exercise 7 does not read the loop's source
for one; attack 16 found that reading false-failed right gates)."""

import concurrent.futures

CLOCKS = ("silence_raises", "own_approver_timeout", "timeout_is_yes")


def asked(approve, block, flaws) -> bool:
    """The approver's answer, asked under the flaw's clock."""
    if "silence_raises" in flaws:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            try:
                return pool.submit(approve, block.name, block.input).result(timeout=0.2) is True
            except concurrent.futures.TimeoutError:
                raise TimeoutError("nobody answered in time; stopping the review") from None
            except Exception:
                return False
    if "own_approver_timeout" in flaws:  # a person slower than the loop's own clock is taken for a no
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            try:
                return pool.submit(approve, block.name, block.input).result(timeout=0.5) is True
            except Exception:
                return False
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # timeout_is_yes
        try:
            return bool(pool.submit(approve, block.name, block.input).result(timeout=0.2))
        except concurrent.futures.TimeoutError:
            return True
