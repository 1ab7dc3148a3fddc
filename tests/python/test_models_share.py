"""perflab.models.share: the bound C++ Spans and DataSpans pass the Tahoe cases of
tests/share/spans_test.cpp (test_basic, test_math, the DataSpans overwrite case and whole-range gets)."""

import pytest

from perflab.models import share

Spans, DataSpans = share.Spans, share.DataSpans


def test_tahoe_basic():
    s = Spans()
    assert len(s) == 0 and not s and not s.contains(0, 1)
    s1 = Spans(3, 4)
    assert s1.each() == [3, 4, 5, 6]
    assert s1.contains(3, 4) and s1.contains(4, 2)
    assert not s1.contains(2, 2) and not s1.contains(6, 2)
    s2 = s1.__copy__()
    s2.add(10, 2)
    assert 10 in s2 and 10 not in s1
    assert s2.each() == [3, 4, 5, 6, 10, 11] and s2.len() == 6
    assert s2.add(15, 2).add(20, 2) is s2
    assert s2.each() == [3, 4, 5, 6, 10, 11, 15, 16, 20, 21] and len(s2) == 10
    s2.remove(4, 3).remove(15, 1)
    assert s2.each() == [3, 10, 11, 16, 20, 21] and len(s2) == 6
    assert list(s2) == [(3, 1), (10, 2), (16, 1), (20, 2)], "iteration gives (start, length) ranges"
    assert (Spans(3, 4) & Spans(5, 4)).each() == [5, 6]


def test_tahoe_large():
    s = Spans(4, 2**62)
    assert s.contains(4, 2) and s.contains(2**61, 2)
    assert len(s) == 2**62


def test_tahoe_math():
    s1, s2, s3 = Spans(0, 10), Spans(5, 3), Spans(8, 4)
    assert (s1 - s2).each() == [0, 1, 2, 3, 4, 8, 9]
    assert (s1 - s3).each() == [0, 1, 2, 3, 4, 5, 6, 7]
    assert (s2 - s3).each() == [5, 6, 7]
    assert (s1 & s2).each() == [5, 6, 7] and (s2 & s1).each() == [5, 6, 7]
    assert (s1 & s3).each() == [8, 9] and (s3 & s1).each() == [8, 9]
    assert not (s2 & s3) and not (Spans() & s3)
    assert (s1 + s2).each() == list(range(10))
    assert (s2 + s3).each() == [5, 6, 7, 8, 9, 10, 11]
    s = s1.__copy__()
    alias = s
    s -= s2
    assert s.each() == [0, 1, 2, 3, 4, 8, 9] and alias is s, "in place, as for a Python set"
    s += Spans(20, 1)
    assert alias is s and 20 in alias
    assert s1 == Spans(0, 10), "-= changed the copy only"


def test_adjacent_ranges_merge():
    s = Spans().add(0, 4).add(8, 4).add(4, 4)
    assert list(s) == [(0, 12)]
    s.remove(4, 4)
    assert list(s) == [(0, 4), (8, 4)]
    assert repr(s) == "Spans([(0, 4), (8, 4)])"


def test_data_spans_tahoe_overwrite():
    ds = DataSpans()
    ds.add(2, b"four")
    ds.add(3, b"ea")
    assert ds.get(2, 4) == b"fear"


def test_data_spans_get_only_whole_ranges():
    ds = DataSpans()
    ds.add(10, b"abcde")
    assert ds.get(10, 5) == b"abcde" and ds.get(11, 2) == b"bc"
    assert ds.get(9, 2) is None and ds.get(14, 2) is None
    ds.add(15, b"fg")
    assert ds.chunks() == [(10, b"abcdefg")], "adjacent data merges"
    assert ds.get(14, 2) == b"ef"
    assert ds.pop(12, 3) == b"cde"
    assert ds.spans().each() == [10, 11, 15, 16]
    assert ds.pop(11, 5) is None
    assert len(ds) == 4


def test_data_spans_hold_any_bytes():
    data = bytes(range(256))
    ds = DataSpans()
    ds.add(0, data)
    assert ds.get(0, 256) == data


def test_negative_offsets_are_value_errors():
    with pytest.raises(ValueError, match="start must be >= 0"):
        Spans(-1, 3)
    with pytest.raises(ValueError, match="length must be >= 0"):
        Spans().add(0, -3)
    with pytest.raises(ValueError, match="start must be >= 0"):
        DataSpans().add(-5, b"x")


def test_a_range_past_2_63_is_a_value_error_not_an_overflow():
    message = r"start \+ length = 9223372036854775806 \+ 10 ends past 2\*\*63 - 1, expected a range below 2\*\*63"
    with pytest.raises(ValueError, match=message):
        Spans().add(2**63 - 2, 10)
    with pytest.raises(ValueError, match="ends past 2"):
        Spans(2**63 - 2, 10)
    with pytest.raises(ValueError, match="ends past 2"):
        DataSpans().add(2**63 - 2, b"0123456789")
    assert Spans().add(2**63 - 11, 10).contains(2**63 - 2, 1), "a range ending at 2**63 - 1 is fine"
