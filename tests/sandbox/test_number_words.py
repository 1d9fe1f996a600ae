"""Numbers written in words become digits for the simulated model's readers (issue #37, probe 53)."""

from hypothesis import given
from hypothesis import strategies as st

from course_sandbox.simulated_model.number_words import digits

_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
         "seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _below_thousand(n: int, joiner: str) -> str:
    hundreds, rest = divmod(n, 100)
    parts = [f"{_UNITS[hundreds]} hundred"] if hundreds else []
    if rest:
        said = _UNITS[rest] if rest < 20 else _TENS[rest // 10] + (f"-{_UNITS[rest % 10]}" if rest % 10 else "")
        parts.append(said)
    return joiner.join(parts)


def english(n: int, joiner: str = " and ") -> str:
    thousands, rest = divmod(n, 1000)
    head = f"{_below_thousand(thousands, joiner)} thousand" if thousands else ""
    tail = _below_thousand(rest, joiner) if rest else ""
    return " ".join(p for p in (head, tail) if p)


@given(st.integers(min_value=2, max_value=999_999), st.sampled_from([" and ", " "]),
       st.sampled_from(["people", "euros", "nights", "packs of AA batteries"]))
def test_an_english_number_in_words_reads_as_its_digits(n, joiner, noun):
    assert digits(f"Order {english(n, joiner)} {noun}, please.") == f"Order {n} {noun}, please."


@given(st.sampled_from(["the one that ends in .log", "one of them", "Someone", "Tennessee", "often", "a tone",
                        "Семья и трава", "пятница", "weight", "anyone"]))
def test_words_that_are_no_numbers_stay(text):
    assert digits(text) == text


def test_russian_numerals_in_their_cases():
    assert digits("на четырёх человек") == "на 4 человек"
    assert digits("две тысячи пятьсот рублей") == "2500 рублей"
    assert digits("сорок пять минут") == "45 минут"


def test_dozens_and_a_counting_one():
    assert digits("a dozen eggs and three dozen roses") == "12 eggs and 36 roses"
    assert digits("Book one night, not the one after") == "Book 1 night, not the one after"


@given(st.lists(st.sampled_from(_UNITS[1:] + _TENS[2:] + ["aaa", "shop", "mail"]), min_size=1, max_size=3),
       st.sampled_from([".com", ".io", ".co.uk", "@mail.org", "/docs", "_v2"]),
       st.sampled_from(["Register {} for two years.", "Renew {}.", "Зарегистрируй домен {} на год.", "Open {}"]))
def test_number_words_inside_a_host_an_address_or_a_path_stay_as_written(labels, tail, sentence):
    """A host, an address or a path keeps its words ("one-two.io" is no "3.io"); the count beside it is still read."""
    name = "-".join(labels) + tail
    said = digits(sentence.format(name))
    assert name in said
    assert "two years" not in said
