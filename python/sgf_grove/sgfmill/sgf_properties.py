"""sgfmill's ``sgf_properties`` module: property values between raw SGF
bytes and Python values.

Each SGF value type has an ``interpret_<type>(raw, context)`` and a
``serialise_<type>(value, context)`` (``context`` has ``size`` and
``encoding``); a :class:`Property_type` pairs them, and a
:class:`Presenter` maps each identifier to its type (unknown ones as
Text, which :meth:`Presenter.set_private_property_type` changes). Points
are ``(row, col)`` from the bottom-left, a pass is ``None``, colours are
``'b'``/``'w'``, point lists are sets, an empty elist is ``[]``.

>>> from sgf_grove.sgfmill.sgf_properties import Presenter
>>> p = Presenter(19, "UTF-8")
>>> p.interpret("AB", [b"aa:bb"]) == {(17, 0), (17, 1), (18, 0), (18, 1)}
True
>>> p.serialise("LB", [((0, 0), "x]")]), p.interpret("KM", [b"6.5"])
([b'as:x\\\\]'], 6.5)

The same as sgfmill, values included; sgf-grove's own typed getters
(``sgf_grove.Node.get``) are more lenient than these, which follow
sgfmill.
"""

from __future__ import annotations

import codecs
import math
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

from . import sgf_grammar

__all__ = ["Presenter", "Property_type", "interpret_go_point", "normalise_charset_name", "serialise_go_point"]

Point = Tuple[int, int]
_LETTERS = b"abcdefghijklmnopqrstuvwxyz"


def normalise_charset_name(s: str) -> str:
    """Python's name of a charset in SGF's spelling (``"UTF-8"``,
    ``"ISO-8859-1"``); ``LookupError`` when Python knows no such codec."""
    name = codecs.lookup(s).name
    return name.replace("_", "-").upper().replace("ISO8859", "ISO-8859")


def interpret_go_point(bb: bytes, size: int) -> Optional[Point]:
    """``(row, col)`` of a raw Point, Move or Stone (``None`` for a pass:
    empty, or ``tt`` up to 19x19); ``ValueError`` when malformed or off
    the board."""
    bb = bytes(bb)
    if bb == b"" or (size <= 19 and bb == b"tt"):
        return None
    if len(bb) != 2:
        raise ValueError(f"bad point: {bb!r}")
    col = bb[0] - 0x61
    row = size - 1 - (bb[1] - 0x61)
    if not (0 <= col < size and 0 <= row < size):
        raise ValueError(f"point off the board: {bb!r}")
    return row, col


def serialise_go_point(move: Optional[Point], size: int) -> bytes:
    """The raw value of ``(row, col)``, or of a pass for ``None`` (``tt`` up
    to 19x19, else empty); ``ValueError`` off the board or for a size
    outside 1 to 26."""
    if not 1 <= size <= 26:
        raise ValueError(f"size out of range: {size}")
    if move is None:
        return b"tt" if size <= 19 else b""
    row, col = move
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"point off the board: {move!r}")
    return bytes((_LETTERS[col], _LETTERS[size - 1 - row]))


class _Context:
    def __init__(self, size: int, encoding: str) -> None:
        self.size = size
        self.encoding = encoding


# -- the value types ----------------------------------------------------------


def interpret_none(bb: bytes, context: Any = None) -> bool:
    """A None value: always ``True``."""
    return True


def serialise_none(b: Any, context: Any = None) -> bytes:
    """A None value: empty, whatever ``b`` is."""
    return b""


def interpret_number(bb: bytes, context: Any = None) -> int:
    """An int; spaces anywhere are ignored (as Python's ``int`` reads the
    rest); ``ValueError`` otherwise."""
    return int(bytes(bb).replace(b" ", b""), 10)


def serialise_number(i: int, context: Any = None) -> bytes:
    """The decimal digits of ``i``."""
    return b"%d" % i


def interpret_real(bb: bytes, context: Any = None) -> float:
    """A float as Python's ``float`` reads it; ``ValueError`` for an
    infinity or NaN."""
    value = float(bb)
    if math.isinf(value) or math.isnan(value):
        raise ValueError(f"not a finite number: {bytes(bb)!r}")
    return value


def serialise_real(f: float, context: Any = None) -> bytes:
    """``f`` without a trailing ``.0`` and without an exponent (``0`` for
    values too small to write plainly); ``ValueError`` for an infinity."""
    f = float(f)
    if math.isinf(f) or math.isnan(f):
        raise ValueError(f"not a finite number: {f!r}")
    if f.is_integer():
        return str(int(f)).encode("ascii")
    text = repr(f)
    if "e-" in text:
        return b"0"
    return text.encode("ascii")


def interpret_double(bb: bytes, context: Any = None) -> int:
    """``2`` when the value is ``2`` (spaces aside), else ``1``."""
    return 2 if bytes(bb).strip() == b"2" else 1


def serialise_double(i: int, context: Any = None) -> bytes:
    """``2`` for 2, ``1`` for anything else."""
    return b"2" if i == 2 else b"1"


def interpret_colour(bb: bytes, context: Any = None) -> str:
    """``'b'`` or ``'w'`` (either case in the file); ``ValueError``
    otherwise."""
    value = bytes(bb).lower()
    if value == b"b":
        return "b"
    if value == b"w":
        return "w"
    raise ValueError(f"bad colour: {bytes(bb)!r}")


def serialise_colour(colour: str, context: Any = None) -> bytes:
    """``B`` or ``W``; ``ValueError`` for anything but ``'b'``/``'w'``."""
    if colour == "b":
        return b"B"
    if colour == "w":
        return b"W"
    raise ValueError(f"bad colour: {colour!r}")


def interpret_simpletext(bb: bytes, context: Any) -> str:
    """A SimpleText value decoded in ``context.encoding`` (see
    :func:`sgf_grammar.simpletext_value`)."""
    return sgf_grammar.simpletext_value(bb).decode(context.encoding)


def serialise_simpletext(s: str, context: Any) -> bytes:
    """``s`` encoded in ``context.encoding``, escaped; ``TypeError`` when
    ``s`` is no string."""
    if not isinstance(s, str):
        raise TypeError(f"expected string, given {type(s).__name__}")
    return sgf_grammar.escape_text(s.encode(context.encoding))


def interpret_text(bb: bytes, context: Any) -> str:
    """A Text value decoded in ``context.encoding`` (see
    :func:`sgf_grammar.text_value`)."""
    return sgf_grammar.text_value(bb).decode(context.encoding)


def serialise_text(s: str, context: Any) -> bytes:
    """As :func:`serialise_simpletext`."""
    return serialise_simpletext(s, context)


def interpret_point(bb: bytes, context: Any) -> Point:
    """A Point or Stone; ``ValueError`` for a pass or a bad point."""
    point = interpret_go_point(bb, context.size)
    if point is None:
        raise ValueError("a pass is no point")
    return point


def serialise_point(point: Point, context: Any) -> bytes:
    """A Point or Stone; ``ValueError`` for ``None`` or a bad point."""
    if point is None:
        raise ValueError("a pass is no point")
    return serialise_go_point(point, context.size)


def interpret_move(bb: bytes, context: Any) -> Optional[Point]:
    """A Move: a point, or ``None`` for a pass."""
    return interpret_go_point(bb, context.size)


def serialise_move(move: Optional[Point], context: Any) -> bytes:
    """A Move: a point, or a pass for ``None``."""
    return serialise_go_point(move, context.size)


def interpret_point_list(values: Iterable[bytes], context: Any) -> Set[Point]:
    """A set of points; ``aa:cc`` rectangles expanded (written top-left
    then bottom-right); overlaps and 1x1 rectangles are accepted."""
    points: Set[Point] = set()
    for bb in values:
        first, colon, second = bytes(bb).partition(b":")
        if not colon:
            points.add(interpret_point(first, context))
            continue
        top, left = interpret_point(first, context)
        bottom, right = interpret_point(second, context)
        if bottom > top or left > right:
            raise ValueError(f"bad rectangle: {bytes(bb)!r}")
        points.update((row, col) for row in range(bottom, top + 1) for col in range(left, right + 1))
    return points


def serialise_point_list(points: Iterable[Point], context: Any) -> List[bytes]:
    """Each point written alone (no rectangles), sorted."""
    return sorted(serialise_point(p, context) for p in points)


def interpret_AP(s: bytes, context: Any) -> Tuple[str, str]:
    """``AP``: ``(application, version)`` (version ``""`` when missing)."""
    name, version = sgf_grammar.parse_compose(s)
    return interpret_simpletext(name, context), interpret_simpletext(version or b"", context)


def serialise_AP(value: Tuple[str, str], context: Any) -> bytes:
    """``AP`` from ``(application, version)``."""
    name, version = value
    return sgf_grammar.compose(serialise_simpletext(name, context), serialise_simpletext(version, context))


def interpret_ARLN_list(values: Iterable[bytes], context: Any) -> List[Tuple[Point, Point]]:
    """``AR``/``LN``: a list of ``(point, point)``."""
    out = []
    for bb in values:
        first, second = sgf_grammar.parse_compose(bb)
        if second is None:
            raise ValueError(f"no ':' in {bytes(bb)!r}")
        out.append((interpret_point(first, context), interpret_point(second, context)))
    return out


def serialise_ARLN_list(values: Iterable[Tuple[Point, Point]], context: Any) -> List[bytes]:
    """``AR``/``LN`` from a list of ``(point, point)``."""
    return [serialise_point(a, context) + b":" + serialise_point(b, context) for a, b in values]


def interpret_FG(bb: bytes, context: Any) -> Optional[Tuple[int, str]]:
    """``FG``: ``(flags, name)``, or ``None`` for an empty value."""
    if bytes(bb) == b"":
        return None
    flags, name = sgf_grammar.parse_compose(bb)
    if name is None:
        raise ValueError(f"no ':' in {bytes(bb)!r}")
    return int(flags), interpret_simpletext(name, context)


def serialise_FG(value: Optional[Tuple[int, str]], context: Any) -> bytes:
    """``FG`` from ``(flags, name)``; empty for ``None``."""
    if value is None:
        return b""
    flags, name = value
    return serialise_number(flags) + b":" + serialise_simpletext(name, context)


def interpret_LB_list(values: Iterable[bytes], context: Any) -> List[Tuple[Point, str]]:
    """``LB``: a list of ``(point, text)``."""
    out = []
    for bb in values:
        point, label = sgf_grammar.parse_compose(bb)
        if label is None:
            raise ValueError(f"no ':' in {bytes(bb)!r}")
        out.append((interpret_point(point, context), interpret_simpletext(label, context)))
    return out


def serialise_LB_list(values: Iterable[Tuple[Point, str]], context: Any) -> List[bytes]:
    """``LB`` from a list of ``(point, text)``."""
    return [serialise_point(p, context) + b":" + serialise_simpletext(text, context) for p, text in values]


# -- types and the presenter --------------------------------------------------


class Property_type:
    """A value type: its ``interpreter`` and ``serialiser``, whether it is a
    list (``uses_list``) and whether an empty list may be written
    (``allows_empty_list``, the elists)."""

    def __init__(
        self,
        interpreter: Callable,
        serialiser: Callable,
        uses_list: bool,
        allows_empty_list: bool = False,
    ) -> None:
        self.interpreter = interpreter
        self.serialiser = serialiser
        self.uses_list = bool(uses_list)
        self.allows_empty_list = bool(allows_empty_list)


def _type(name: str, *, of: Optional[str] = None, elist: bool = False) -> Property_type:
    base = of or name
    g = globals()
    return Property_type(g["interpret_" + base], g["serialise_" + base], base.endswith("_list"), elist)


_TYPES: Dict[str, Property_type] = {
    name: _type(name)
    for name in (
        "none",
        "number",
        "real",
        "double",
        "colour",
        "simpletext",
        "text",
        "point",
        "move",
        "point_list",
        "AP",
        "ARLN_list",
        "FG",
        "LB_list",
    )
}
_TYPES["point_elist"] = _type("point_elist", of="point_list", elist=True)
_TYPES["stone_list"] = _type("stone_list", of="point_list")

# The FF[4] general and Go properties, by value type.
_IDENTS_BY_TYPE = {
    "stone_list": "AB AW",
    "point_list": "AE CR MA SL SQ TR",
    "point_elist": "DD TB TW VW",
    "simpletext": "AN BR BT CA CP DT EV GN N ON OT PB PC PW RE RO RU SO US WR WT",
    "text": "C GC",
    "AP": "AP",
    "ARLN_list": "AR LN",
    "LB_list": "LB",
    "FG": "FG",
    "move": "B W",
    "real": "BL KM TM V WL",
    "double": "BM DM GB GW HO TE UC",
    "none": "DO IT KO",
    "number": "FF GM HA MN OB OW PM ST SZ",
    "colour": "PL",
}
_TYPE_OF: Dict[str, Property_type] = {
    ident: _TYPES[kind] for kind, idents in _IDENTS_BY_TYPE.items() for ident in idents.split()
}


class Presenter(_Context):
    """Interprets and serialises property values for a board ``size`` and
    an ``encoding`` (normalised; ``ValueError`` when not ASCII or unknown
    to Python). Unknown identifiers are Text until
    :meth:`set_private_property_type` says otherwise."""

    def __init__(self, size: int, encoding: str) -> None:
        if not isinstance(encoding, str) or not encoding.isascii():
            raise ValueError("encoding names must be ascii")
        try:
            encoding = normalise_charset_name(encoding)
        except LookupError:
            raise ValueError(f"unknown encoding: {encoding}") from None
        super().__init__(size, encoding)
        self.property_types_by_ident: Dict[str, Property_type] = dict(_TYPE_OF)
        self.default_property_type: Optional[Property_type] = _TYPES["text"]

    def get_property_type(self, identifier: str) -> Property_type:
        """The type of ``identifier``; ``KeyError`` when unknown."""
        return self.property_types_by_ident[identifier]

    def register_property(self, identifier: str, property_type: Property_type) -> None:
        """Gives ``identifier`` the type ``property_type``."""
        self.property_types_by_ident[identifier] = property_type

    def deregister_property(self, identifier: str) -> None:
        """Forgets the type of ``identifier`` (``KeyError`` when unknown)."""
        del self.property_types_by_ident[identifier]

    def set_private_property_type(self, property_type: Optional[Property_type]) -> None:
        """The type of unknown identifiers; ``None``: they raise
        ``ValueError``."""
        self.default_property_type = property_type

    def _type_of(self, identifier: str) -> Property_type:
        found = self.property_types_by_ident.get(identifier)
        if found is not None:
            return found
        if self.default_property_type is None:
            raise ValueError("unknown property")
        return self.default_property_type

    def interpret_as_type(self, property_type: Property_type, raw_values: List[bytes]) -> Any:
        """The Python value of ``raw_values`` (a non-empty list) as
        ``property_type``: a list type reads ``[b""]`` as empty; any other
        type takes exactly one value (``ValueError`` otherwise)."""
        if not raw_values:
            raise ValueError("no raw values")
        if property_type.uses_list:
            return property_type.interpreter([] if raw_values == [b""] else raw_values, self)
        if len(raw_values) != 1:
            raise ValueError("multiple values")
        return property_type.interpreter(raw_values[0], self)

    def interpret(self, identifier: str, raw_values: List[bytes]) -> Any:
        """The Python value of the property ``identifier`` with
        ``raw_values``; ``ValueError`` when it cannot be read."""
        return self.interpret_as_type(self._type_of(identifier), raw_values)

    def serialise_as_type(self, property_type: Property_type, value: Any) -> List[bytes]:
        """The raw values of ``value`` as ``property_type`` (``[b""]`` for
        an empty elist; ``ValueError`` for another empty list)."""
        written = property_type.serialiser(value, self)
        if not property_type.uses_list:
            return [written]
        if written:
            return written
        if property_type.allows_empty_list:
            return [b""]
        raise ValueError("empty list")

    def serialise(self, identifier: str, value: Any) -> List[bytes]:
        """The raw values of the property ``identifier`` set to ``value``;
        ``ValueError`` when it cannot be written."""
        return self.serialise_as_type(self._type_of(identifier), value)
