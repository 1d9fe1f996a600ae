"""Arithmetic the simulated model states must be right: find the expression in the user's
words, evaluate it exactly (fractions, no floats, no eval()), and show the result.

"What is 1,984,135 * 9,343,116?" once got "135 * 9 = 1215"; a model in a course about
agents should not teach that a model's arithmetic is wrong in a new way.
"""

import ast
import re
from dataclasses import dataclass
from fractions import Fraction

_WORD_OPERATORS = [
    (r"\b(?:multiplied by|times)\b|умножить на|умноженное на", "*"),
    (r"\bdivided by\b|разделить на|делённое на|деленное на", "/"),
    (r"\bplus\b|плюс", "+"),
    (r"\bminus\b|минус", "-"),
    (r"\bto the power of\b|в степени", "**"),
]
_RUN = re.compile(r"(?<![\w.])-?[\d(][\d\s.,+\-*/×÷%^()]*[\d)]")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_PERCENT_OF = re.compile(r"(?<![\d.,])(\d{1,12}(?:[.,]\d{1,6})?)\s?%\s+(of|от)\s+(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,"
                         r"15}(?:[.,]\d{1,6})?)",
                         re.I)
_DATE_LIKE = re.compile(r"^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$")
_OPERATOR = re.compile(r"[\d)]\s*(\*\*|[-+*/×÷%^])\s*-?\s*[\d(]")
MAX_LENGTH = 300
"""Longer runs are not read as arithmetic (a pasted log, a table of numbers), and none nests too deep."""
MAX_DIGITS = 4000
"""Results with more digits are not computed (Python refuses to print them, and nobody asks)."""
MAX_POWER_BITS = 10_000
"""A power whose result would need more bits than this is not computed (no denial of service)."""


@dataclass
class Result:
    expression: str
    value: Fraction | None
    error: str = ""
    program: str = ""
    """The expression as a calculator tool parses it, when the words differ ("18% of 2,340" -> "2340 * 18 / 100")."""

    def computable(self) -> str:
        return self.program or plain(self.expression)

    def shown(self) -> str:
        """'6 * 7 = 42', '1 / 3 ≈ 0.333333333333', with thousands separators if the user wrote them."""
        if self.value is None:
            return f"{self.expression}: {self.error}"
        exact, text = format_number(self.value, grouped=bool(_THOUSANDS.search(self.expression)))
        return f"{self.expression} {'=' if exact else '≈'} {text}"


def find(text: str) -> Result | None:
    """The first arithmetic expression in the text (with at least one operator), evaluated."""
    percent = _PERCENT_OF.search(text)
    if percent:
        share, word, whole = percent.groups()
        return Result(f"{share}% {word} {whole}", evaluate(share) / 100 * evaluate(whole),
                      program=f"{plain(whole)} * {plain(share)} / 100")
    normalized = text
    for pattern, symbol in _WORD_OPERATORS:
        normalized = re.sub(pattern, f" {symbol} ", normalized, flags=re.I)
    for match in _RUN.finditer(normalized):
        run = re.sub(r"\s+", " ", match.group(0)).strip()
        run = _balanced(run)
        if not run or len(run) > MAX_LENGTH or not _OPERATOR.search(run) or _DATE_LIKE.match(run.replace(" ", "")):
            continue
        run = _spaced(run)
        try:
            return Result(run, evaluate(run))
        except ZeroDivisionError:
            return Result(run, None, "division by zero is undefined")
        except (ValueError, SyntaxError, OverflowError, RecursionError, MemoryError):
            continue
    return None


def plain(expression: str) -> str:
    """The expression as a program would read it: no thousands separators, `**` for powers
    ("1,984,135 × 2^3" -> "1984135 * 2**3"), so a learner's calculator tool gets what it can parse."""
    source = _THOUSANDS.sub("", expression).replace("×", "*").replace("÷", "/").replace("^", "**")
    return re.sub(r"(?<=\d),(?=\d)", ".", source).strip()  # a decimal comma, as Russian writes 2,5


def evaluate(expression: str) -> Fraction:
    """The exact value of + - * / ** % and parentheses over decimal numbers; anything else is refused."""
    tree = ast.parse(plain(expression), mode="eval")
    value = _value(tree.body)
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_DIGITS * 3.33:
        raise OverflowError("too many digits")
    return value


def format_number(value: Fraction, grouped: bool = False) -> tuple[bool, str]:
    """(exact?, text): integers and terminating decimals exactly, others to 12 decimal places."""
    if value.denominator == 1:
        return True, f"{value.numerator:,}" if grouped else str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    places = 12
    if denominator == 1:
        places = 0
        while (value * 10 ** places).denominator != 1:
            places += 1
    scaled = round(value * 10 ** places)
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled)).rjust(places + 1, "0")
    whole, fraction = digits[:-places], digits[-places:].rstrip("0") if denominator != 1 else digits[-places:]
    whole_text = f"{int(whole):,}" if grouped else whole
    return denominator == 1, f"{sign}{whole_text}.{fraction}" if fraction else f"{sign}{whole_text}"


def _spaced(run: str) -> str:
    """One space around each binary operator, as the answer shows it: '2+2' -> '2 + 2'."""
    out: list[str] = []
    previous = "start"
    for part in re.findall(r"\d[\d,.]*|\*\*|[-+*/×÷%^()]", run):
        if part[0].isdigit():
            out.append(part)
            previous = "number"
        elif part in "()":
            out.append(part)
            previous = "close" if part == ")" else "open"
        elif previous in ("number", "close"):
            out.append(f" {part} ")
            previous = "operator"
        else:
            out.append(part)  # a sign: -2
            previous = "sign"
    return "".join(out).strip()


def _balanced(run: str) -> str:
    """The run without unmatched parentheses at its ends ("(see 2 + 3" -> "2 + 3")."""
    while run and run.count("(") > run.count(")") and run.startswith("("):
        run = run[1:].strip()
    while run and run.count(")") > run.count("(") and run.endswith(")"):
        run = run[:-1].strip()
    return run


def _value(node: ast.AST) -> Fraction:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return Fraction(repr(node.value)) if isinstance(node.value, float) else Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        operand = _value(node.operand)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            if left.numerator.bit_length() + right.numerator.bit_length() > 2 * MAX_POWER_BITS:
                raise OverflowError("too large")
            return left * right
        if isinstance(node.op, ast.Div):
            return left / right
        if isinstance(node.op, ast.Mod):
            return left % right
        if isinstance(node.op, ast.Pow):
            return _power(left, right)
    raise ValueError("not arithmetic")


def _power(base: Fraction, exponent: Fraction) -> Fraction:
    if exponent.denominator != 1:
        raise ValueError("only whole powers are computed exactly")
    bits = max(base.numerator.bit_length(), base.denominator.bit_length(), 1) * abs(exponent.numerator)
    if bits > MAX_POWER_BITS:
        raise OverflowError("too large")
    return base ** exponent.numerator
