"""The one Python writer of sizes, rates and durations, the twin of format_quantity in sim/sampling/units.h.
Units are those of the CSV columns (sizes in bytes, rates in bytes/s, durations in s). literal() spells a
value as a scenario file does, exactly, for plot labels that name grid values ("4120B", "64KiB", "4MiBps");
readable() writes it for people with four significant digits, for the site's ticks and tooltips
("4.023 KiB", "64 KiB/s", "1.5 s", "20 ms")."""

BINARY = (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))
BELOW_A_SECOND = (("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9))


def literal(value: float, unit: str = "bytes") -> str:
    """A size ("bytes") or rate ("bytes/s") in the largest binary unit that divides it: 4120 -> "4120B",
    65536 -> "64KiB", 4194304 bytes/s -> "4MiBps"."""
    if unit not in ("bytes", "bytes/s"):
        raise ValueError(f"literal: unit \"{unit}\", expected bytes or bytes/s")
    tail = "ps" if unit == "bytes/s" else ""
    for name, scale in BINARY:
        if value >= scale and value % scale == 0:
            return f"{int(value // scale)}{name}{tail}"
    return f"{value:g}B{tail}"


def readable(value: float, unit: str):
    """`value` in `unit` as a person reads it, four significant digits: bytes and bytes/s in the largest
    binary unit not above them, seconds from 1 s up in s, below in ms, µs or ns. None for another unit,
    and for 0 s or less than a nanosecond (the caller writes those as plain numbers)."""
    if unit in ("bytes", "bytes/s"):
        tail = "/s" if unit == "bytes/s" else ""
        for name, scale in BINARY:
            if abs(value) >= scale:
                return f"{value / scale:.4g} {name}{tail}"
        return f"{value:.4g} B{tail}"
    if unit == "s" and abs(value) >= 1:
        return f"{value:.4g} s"
    if unit == "s" and value != 0:
        for name, scale in BELOW_A_SECOND:
            if abs(value) >= scale:
                return f"{value / scale:.4g} {name}"
    return None
