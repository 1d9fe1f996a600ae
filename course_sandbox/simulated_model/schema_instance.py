"""A JSON value that fits a JSON Schema: the inputs of forced tool calls and the JSON of
structured outputs.

A real model never sends `{}` to a tool whose schema requires `location`, so neither may the
simulated one. Values come from hints (the user's words, see slots.py) where a hint fits, and
from the schema itself elsewhere; every candidate is checked with jsonschema, and a hint that
breaks the schema is dropped for a plain schema-derived value. Deterministic: no randomness.
Bounded (generation_bounds): a schema that would take too long or too much to satisfy gets
Unprovable, never a stalled server.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from jsonschema import validators
from jsonschema.exceptions import SchemaError

from .generation_bounds import (
    CURRENT,
    MAX_STEPS,
    Budget,
    Unprovable,
    Unsatisfiable,
    check_size,
    guarded,
    key_matches,
    key_patterns,
    keys_checkable,
)
from .scalar_values import MISSING, is_number, number_value, string_value

__all__ = ["MISSING", "Hints", "NoHints", "Unprovable", "Unsatisfiable", "instance", "is_valid", "merge",
           "well_formed"]

MAX_DEPTH = 8
"""Deeper than this, only required properties and minItems are generated (recursive $refs end)."""
OPTIONAL_DEPTH = 3


class Hints(Protocol):
    """Where values from the conversation come from (slots.RequestHints implements it)."""

    def value(self, name: str, schema: dict, index: int | None) -> Any:
        """A value for a property (or the index-th item of an array property), or MISSING."""

    def wanted(self, name: str, schema: dict) -> bool:
        """Whether an optional property has something worth filling it with."""

    def count(self, name: str, schema: dict) -> int:
        """How many items the words offer for an array property (0 when none)."""


class NoHints:
    def value(self, name: str, schema: dict, index: int | None) -> Any:
        return MISSING

    def wanted(self, name: str, schema: dict) -> bool:
        return False

    def count(self, name: str, schema: dict) -> int:
        return 0


@dataclass
class _Context:
    root: dict
    hints: Hints
    optional: bool
    validators: dict[int, Any] = field(default_factory=dict)


def instance(schema: dict | bool, hints: Hints | None = None, *, optional: bool = False,
             fixed: dict | None = None) -> Any:
    """A value valid against the schema: from hints when they fit, else from the schema alone.

    optional=True also fills optional properties (what a structured output looks like);
    fixed gives top-level property values that must be kept when they are valid.
    Unprovable when no value could be shown valid within the bounds (generation_bounds).
    """
    root = schema if isinstance(schema, dict) else {}
    if not well_formed(schema):
        return {}
    budget = CURRENT.get() or Budget()
    token = CURRENT.set(budget)
    try:
        return _first_valid(schema, root, hints, optional, fixed, budget)
    finally:
        CURRENT.reset(token)


def _first_valid(schema: dict | bool, root: dict, hints: Hints | None, optional: bool, fixed: dict | None,
                 budget: Budget) -> Any:
    _refuse_endless_refs(root)
    attempts = [(hints or NoHints(), optional), (NoHints(), optional), (NoHints(), False)]
    last: Any = None
    beyond: Unprovable | None = None
    checked: dict[int, Any] = {}  # validators, shared by the attempts
    for attempt_hints, attempt_optional in attempts:
        context = _Context(root, attempt_hints, attempt_optional, checked)
        budget.steps = MAX_STEPS  # each attempt has its own steps (hints can make one costly); the deadline is shared
        try:
            value = _generate(context, schema, "", None, 0, 0, fixed or {})
        except Unprovable as problem:
            beyond = beyond or problem
            continue
        except Unsatisfiable:
            continue
        if is_valid(schema, value, root, context):
            return value
        last = value
    if beyond is not None:
        raise beyond
    if budget.unchecked:
        shown = ", ".join(f"`{p[:60]}`" for p in budget.unchecked[:3])
        raise Unprovable(f"I cannot check a value against the pattern {shown} quickly: its repetitions can "
                         "match the same text in too many ways (or it uses syntax I do not follow)",
                         f"я не могу быстро проверить значение по шаблону {shown}: его повторения "
                         "совпадают с одним и тем же текстом слишком многими способами (или в нём "
                         "синтаксис, которого я не понимаю)")
    return last if last is not None else {}  # a schema no finite value fits gets the nearest try, as before


def _refuse_endless_refs(root: dict) -> None:
    """Unprovable for a `$ref` that leads back to itself through nothing but `$ref`s (`value` whose
    schema is `{"$ref": "#/properties/value"}`): every check of it recurses until Python gives up."""
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
            continue
        if not isinstance(node, dict):
            continue
        stack += node.values()
        seen = {id(node)}
        target = node
        while isinstance(target, dict) and isinstance(target.get("$ref"), str):
            target = _pointer(root, target["$ref"])
            if id(target) in seen:
                raise Unprovable(f"its `$ref` {node['$ref']!r} refers to itself and nothing else",
                                 f"его `$ref` {node['$ref']!r} ссылается сам на себя")
            seen.add(id(target))


def well_formed(schema: Any) -> bool:
    """Whether the schema is a JSON Schema at all (the metaschema says so); an ill-formed one gets `{}`."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict):
        return False
    cls = validators.validator_for(schema, default=validators.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except SchemaError:
        return False
    except Exception:  # a $schema or $ref the checker cannot follow
        return False
    return True


def is_valid(schema: dict | bool, value: Any, root: dict | None = None, context: _Context | None = None) -> bool:
    """Whether the value validates (formats checked too), resolving $refs against the root."""
    if isinstance(schema, bool):
        return schema
    budget = CURRENT.get()
    if budget is not None:
        if not budget.left():
            return False
        budget.steps -= 1
    cache = context.validators if context is not None else {}
    cached = cache.get(id(schema))
    if cached is None:
        wrapped = dict(schema)
        for key in ("$defs", "definitions"):
            if root and key in root and key not in wrapped:
                wrapped[key] = root[key]
        cls = guarded(validators.validator_for(root or schema, default=validators.Draft202012Validator))
        try:
            validator = cls(wrapped, format_checker=cls.FORMAT_CHECKER)
        except SchemaError:
            return False
        # the schema is kept alive, so its id is not reused
        cached = cache[id(schema)] = (schema, validator, key_patterns(wrapped))
    if not keys_checkable(value, cached[2]):
        return False
    try:
        return cached[1].is_valid(value)
    except Exception:  # an unresolvable $ref, a pattern Python cannot compile
        return False


def _generate(ctx: _Context, schema: Any, name: str, index: int | None, variant: int, depth: int,
              fixed: dict) -> Any:
    budget = CURRENT.get()
    if budget is not None:
        budget.spend()
    if schema is True or schema == {}:
        hinted = ctx.hints.value(name, {}, index)
        return "" if hinted is MISSING else hinted
    if schema is False or not isinstance(schema, dict):
        raise Unsatisfiable(name)
    if depth > MAX_DEPTH + 4:
        raise Unsatisfiable("too deep")
    schema = _resolved(ctx, schema)
    check_size(schema)
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return _branch(ctx, schema, key, name, index, variant, depth, fixed)
    candidates = [_plain(ctx, schema, name, index, variant, depth, fixed, use_hints=True)]
    if not is_valid(schema, candidates[0], ctx.root, ctx):
        for alt in range(4):
            try:
                candidates.append(_plain(ctx, schema, name, index, variant + alt, depth, {}, use_hints=False))
            except Unsatisfiable:
                break
            if is_valid(schema, candidates[-1], ctx.root, ctx):
                return candidates[-1]
    return candidates[0]


def _resolved(ctx: _Context, schema: dict) -> dict:
    """The schema with $ref followed and allOf merged in, so generation sees one set of keywords."""
    for _ in range(MAX_DEPTH):
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            break
        target = _pointer(ctx.root, ref)
        if target is None:
            raise Unsatisfiable(ref)
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        schema = merge(target if isinstance(target, dict) else {}, rest) if target is not True else rest
    parts = schema.get("allOf")
    if isinstance(parts, list):
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in parts:
            if part is False:
                raise Unsatisfiable("allOf false")
            if isinstance(part, dict):
                merged = merge(merged, _resolved(ctx, part))
        schema = merged
    return schema


def _checker(ctx: _Context) -> Callable[[dict, Any], bool]:
    return lambda schema, value: is_valid(schema, value, ctx.root, ctx)


def _pointer(root: dict, ref: str) -> Any:
    if not ref.startswith("#"):
        return None
    node: Any = root
    for part in [p for p in ref[1:].split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def merge(a: dict, b: dict) -> dict:
    """Two schemas' keywords as one (for allOf and $ref siblings): tighter bounds win."""
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value
        elif key == "properties" and isinstance(value, dict) and isinstance(out[key], dict):
            props = dict(out[key])
            for prop, sub in value.items():
                both = isinstance(props.get(prop), dict) and isinstance(sub, dict)
                props[prop] = merge(props[prop], sub) if both else sub
            out[key] = props
        elif key == "required" and isinstance(value, list) and isinstance(out[key], list):
            out[key] = list(dict.fromkeys(out[key] + value))
        elif key in ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties") \
                and is_number(value) and is_number(out[key]):
            out[key] = max(out[key], value)
        elif key in ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties") \
                and is_number(value) and is_number(out[key]):
            out[key] = min(out[key], value)
        elif key == "type":
            left = set(out[key] if isinstance(out[key], list) else [out[key]])
            right = set(value if isinstance(value, list) else [value])
            common = left & right or ({"integer"} if {"integer", "number"} <= left | right else set())
            out[key] = sorted(common) if len(common) != 1 else common.pop()
        elif key == "enum" and isinstance(value, list) and isinstance(out[key], list):
            out[key] = [v for v in out[key] if v in value]
        elif key in ("items", "additionalProperties") and isinstance(value, dict) and isinstance(out[key], dict):
            out[key] = merge(out[key], value)
        elif key in ("anyOf", "oneOf", "allOf"):
            out["allOf"] = list(out.get("allOf") or []) + [{key: value}]
        else:
            out[key] = value
    return out


def _branch(ctx: _Context, schema: dict, key: str, name: str, index: int | None, variant: int, depth: int,
            fixed: dict) -> Any:
    """anyOf/oneOf: the first branch whose value validates against the whole schema."""
    base = {k: v for k, v in schema.items() if k != key}
    first: Any = MISSING
    for branch in schema[key]:
        if branch is False:
            continue
        combined = merge(base, _resolved(ctx, branch)) if isinstance(branch, dict) else base
        try:
            value = _generate(ctx, combined, name, index, variant, depth + 1, fixed)
        except Unsatisfiable:
            continue
        if is_valid(schema, value, ctx.root, ctx):
            return value
        first = value if first is MISSING else first
    if first is MISSING:
        raise Unsatisfiable(key)
    return first


def _plain(ctx: _Context, schema: dict, name: str, index: int | None, variant: int, depth: int, fixed: dict,
           use_hints: bool) -> Any:
    hints = ctx.hints if use_hints else NoHints()
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list):
        return _enum(ctx, schema, hints, name, index, variant)
    hinted = hints.value(name, schema, index)
    kind = _kind(schema, hinted)
    if kind == "object" and isinstance(hinted, dict) and is_valid(schema, hinted, ctx.root, ctx):
        return hinted  # an item of an array of objects, filled from its own words (item_lists)
    if kind == "object":
        scoped = getattr(hints, "scoped", None)  # RequestHints: `sender` from "from …", `recipient` from "to …"
        inner = scoped(name) if scoped is not None else hints
        if inner is not hints:
            outer, ctx.hints = ctx.hints, inner
            try:
                return _plain(ctx, schema, name, index, variant, depth, fixed, use_hints)
            finally:
                ctx.hints = outer
        parents = getattr(hints, "parents", None)  # RequestHints reads `place.name` as a venue's name
        if parents is None:
            return _object(ctx, schema, hints, variant, depth, fixed)
        parents.append(name)
        try:
            return _object(ctx, schema, hints, variant, depth, fixed)
        finally:
            parents.pop()
    if kind == "array":
        return _array(ctx, schema, hints, name, variant, depth)
    if kind == "string":
        return string_value(schema, hinted, name, variant, _checker(ctx))
    if kind in ("integer", "number"):
        return number_value(schema, hinted, kind == "integer", variant, _checker(ctx))
    if kind == "boolean":
        if isinstance(hinted, bool):
            return hinted
        default = schema.get("default")
        return default if isinstance(default, bool) else bool(variant % 2)
    return None


def _kind(schema: dict, hinted: Any) -> str:
    declared = schema.get("type")
    types = declared if isinstance(declared, list) else [declared] if isinstance(declared, str) else []
    if not types:
        if any(k in schema for k in ("properties", "required", "additionalProperties", "patternProperties",
                                     "minProperties")):
            return "object"
        if any(k in schema for k in ("items", "prefixItems", "minItems", "maxItems", "contains", "uniqueItems")):
            return "array"
        if any(k in schema for k in ("minLength", "maxLength", "pattern", "format")):
            return "string"
        if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
            return "number"
        types = ["string", "number", "integer", "boolean", "object", "array", "null"] if hinted is not MISSING \
            else ["string"]
    if hinted is not MISSING:
        for kind in types:
            if _json_type_fits(hinted, kind):
                return kind
    non_null = [t for t in types if t != "null"]
    return non_null[0] if non_null else "null"


def _json_type_fits(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return is_number(value) and float(value).is_integer()
    if kind == "number":
        return is_number(value)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    return value is None


def _enum(ctx: _Context, schema: dict, hints: Hints, name: str, index: int | None, variant: int) -> Any:
    rest = {k: v for k, v in schema.items() if k != "enum"}
    options = [v for v in schema["enum"] if is_valid(rest, v, ctx.root)] or list(schema["enum"])
    if not options:
        raise Unsatisfiable("empty enum")
    hinted = hints.value(name, {**schema, "enum": options}, index)
    if hinted is not MISSING and hinted in options:
        return hinted
    if "default" in schema and schema["default"] in options and variant == 0:
        return schema["default"]
    return options[variant % len(options)]


def _object(ctx: _Context, schema: dict, hints: Hints, variant: int, depth: int, fixed: dict) -> dict:
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = [r for r in schema.get("required") or [] if isinstance(r, str)]
    deep = depth >= MAX_DEPTH
    keys = list(dict.fromkeys(required + [k for k in fixed if k in props]))
    for key, sub in props.items():
        if key in keys or deep or sub is False:
            continue
        if (ctx.optional and depth < OPTIONAL_DEPTH) or hints.wanted(key, sub if isinstance(sub, dict) else {}):
            keys.append(key)
    stated = getattr(hints, "stated_pairs", None)
    open_ended = schema.get("additionalProperties") is True or isinstance(schema.get("additionalProperties"), dict)
    if depth == 0 and not props and not schema.get("patternProperties") and open_ended and callable(stated):
        # "print all characteristics" (an object that says it takes any keys, not a tool with no inputs): what the
        # request states, key by key
        for key, value in stated().items():
            if key not in fixed and is_valid(_property_schema(schema, key), value, ctx.root, ctx):
                fixed = {**fixed, key: value}
                keys.append(key)
    dependent = schema.get("dependentRequired") if isinstance(schema.get("dependentRequired"), dict) else {}
    for key in list(keys):
        keys += [d for d in dependent.get(key, []) if isinstance(d, str) and d not in keys]
    result: dict = {}
    for key in keys:
        sub = _property_schema(schema, key)
        if key in fixed and is_valid(sub, fixed[key], ctx.root, ctx):
            result[key] = fixed[key]
            continue
        result[key] = _generate(ctx, sub, key, None, variant if key not in required else 0, depth + 1, {})
    minimum = schema.get("minProperties")
    if isinstance(minimum, int):
        extra = schema.get("additionalProperties", True)
        n = 0
        while len(result) < minimum and n < minimum + len(props):
            spare = next((k for k in props if k not in result), None)
            key = spare or f"extra_{n + 1}"
            if spare is None and extra is False:
                break
            result[key] = _generate(ctx, _property_schema(schema, key), key, None, 0, depth + 1, {})
            n += 1
    maximum = schema.get("maxProperties")
    if isinstance(maximum, int):
        for key in [k for k in list(result) if k not in required][::-1]:
            if len(result) <= maximum:
                break
            del result[key]
    return result


def _property_schema(schema: dict, key: str) -> Any:
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    if key in props:
        return props[key]
    for pattern, sub in (schema.get("patternProperties") or {}).items():
        if key_matches(pattern, key):
            return sub
    extra = schema.get("additionalProperties", True)
    return extra if isinstance(extra, (dict, bool)) else True


def _array(ctx: _Context, schema: dict, hints: Hints, name: str, variant: int, depth: int) -> list:
    prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else \
        schema.get("items") if isinstance(schema.get("items"), list) else []
    items = schema.get("items") if isinstance(schema.get("items"), (dict, bool)) else \
        schema.get("additionalItems", True) if prefix else True
    low = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
    high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else None
    wanted = hints.count(name, schema)
    n = max(low, wanted or (1 if ctx.optional and depth < OPTIONAL_DEPTH else 0), len(prefix) if ctx.optional else 0)
    if items is False:
        n = min(n, len(prefix))
    n = min(n, high) if high is not None else n
    if depth >= MAX_DEPTH:
        n = low
    values: list = []
    for i in range(n):
        sub = prefix[i] if i < len(prefix) else items
        value = _generate(ctx, sub, name, i if i < wanted else None, variant + i, depth + 1, {})
        if schema.get("uniqueItems"):
            tries = 0
            while value in values and tries < 8:
                tries += 1
                value = _generate(ctx, sub, name, None, variant + i + tries * 7, depth + 1, {})
        values.append(value)
    contains = schema.get("contains")
    if isinstance(contains, dict) and not any(is_valid(contains, v, ctx.root, ctx) for v in values):
        value = _generate(ctx, contains, name, None, variant, depth + 1, {})
        if high is not None and len(values) >= high and values:
            values[-1] = value
        else:
            values.append(value)
    return values
