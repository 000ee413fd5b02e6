"""Flattening of a parsed Python SDK model into the expected-value map.

The format is described in README.md beside this file; flatten.mjs does the
same for the TypeScript SDK's parsed objects. Keep the two in step.
"""

import enum
import json
import re
import types
import typing
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

# A path segment written as `.name`; any other key is written as `["..."]`.
IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")

# Typed lists in the SDK models that the corpus format treats as one JSON leaf
# (the JSON Patch documents of STATE_DELTA and ACTIVITY_DELTA).
JSON_LEAF_FIELDS = {("StateDeltaEvent", "delta"), ("ActivityDeltaEvent", "patch")}


def join(path: str, key: str) -> str:
    """Append an object key to a path."""
    if IDENT.match(key):
        return f"{path}.{key}" if path else key
    return path + "[" + json.dumps(key, ensure_ascii=False) + "]"


def is_json_annotation(annotation) -> bool:
    """True for `Any`, `Dict[...]` and their Optional forms: the JSON-valued fields."""
    if annotation is Any:
        return True
    origin = get_origin(annotation)
    if origin is typing.Annotated:
        return is_json_annotation(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        args = [a for a in get_args(annotation) if a is not type(None)]
        return len(args) == 1 and is_json_annotation(args[0])
    return origin is dict


def to_json(value):
    """A plain JSON value (dict/list/str/int/float/bool/None) for a model attribute."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def flatten(model: BaseModel) -> dict:
    """The flat path -> value map of a parsed model (the root may flatten to {})."""
    out: dict = {}
    _walk_model(model, "", out)
    return out


def _walk_model(model: BaseModel, path: str, out: dict) -> None:
    before = len(out)
    cls = type(model)
    for name, field in cls.model_fields.items():
        value = getattr(model, name)
        key = field.alias or name
        here = join(path, key)
        if value is None and not field.is_required():
            continue  # absent (or null, which the Python SDK treats as absent)
        if is_json_annotation(field.annotation) or (cls.__name__, key) in JSON_LEAF_FIELDS:
            out[here] = to_json(value)
        else:
            _walk_value(value, here, out)
    for key, value in (model.__pydantic_extra__ or {}).items():
        out[join(path, key)] = to_json(value)
    if len(out) == before and path:
        out[path] = {}


def _walk_value(value, path: str, out: dict) -> None:
    if isinstance(value, BaseModel):
        _walk_model(value, path, out)
    elif isinstance(value, (list, tuple)):
        if not value:
            out[path] = []
        for i, item in enumerate(value):
            _walk_value(item, f"{path}[{i}]", out)
    elif isinstance(value, enum.Enum):
        out[path] = value.value
    else:
        out[path] = value


def json_equal(a, b) -> bool:
    """JSON equality: numbers by mathematical value (1 == 1.0, -0.0 == 0), bools apart."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b  # Python compares int and float exactly
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b
