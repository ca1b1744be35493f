"""The lobby's cache: the same page within its time is one read, a new page is another."""

from stacks_api.runtime.ttl_cache import TtlCache


def test_answers_are_kept_for_their_time_and_the_oldest_go_first():
    now = [0.0]
    cache: TtlCache[int] = TtlCache(1.0, size=2, clock=lambda: now[0])
    reads: list[str] = []

    def read(key: str) -> int:
        reads.append(key)
        return len(reads)

    assert cache.get("a", lambda: read("a")) == 1
    assert cache.get("a", lambda: read("a")) == 1, "within its second: no read"
    now[0] = 1.5
    assert cache.get("a", lambda: read("a")) == 2, "past its second: read again"
    cache.get("b", lambda: read("b"))
    cache.get("c", lambda: read("c"))  # holds two: "a" goes
    assert cache.get("c", lambda: read("c")) == 4
    assert cache.get("a", lambda: read("a")) == 5
    assert reads == ["a", "a", "b", "c", "a"]


def test_a_zero_time_caches_nothing():
    cache: TtlCache[int] = TtlCache(0.0)
    reads = []
    for _ in range(3):
        cache.get("a", lambda: reads.append(1) or len(reads))
    assert len(reads) == 3
