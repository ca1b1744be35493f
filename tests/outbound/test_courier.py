"""The courier: one hostile receiver holds only its own slots, every attempt ends
by its deadline, an answer is read only so far, and nothing private is called."""

from __future__ import annotations

import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from stacks_api.outbound.addresses import Allowed
from stacks_api.outbound.courier import Courier, Letter, Rules
from stacks_api.outbound.http import Answer

from .hostile import Receiver, endless, ok, raw, silent, trickle, wait_for

LOOPBACK = Allowed.parse("127.0.0.0/8")


@pytest.fixture
def receivers() -> Iterator[list[Receiver]]:
    made: list[Receiver] = []
    yield made
    for receiver in made:
        receiver.stop()


def start(receivers: list[Receiver], answer, host: str = "127.0.0.1", **kw) -> tuple[Receiver, str]:  # type: ignore[no-untyped-def]
    receiver = Receiver(answer, host, **kw)
    receivers.append(receiver)
    return receiver, receiver.start()


class Answers:
    """Collects what ``done`` is called with, by letter."""

    def __init__(self) -> None:
        self.got: dict[str, Answer] = {}
        self.lock = threading.Lock()

    def done(self, name: str):  # type: ignore[no-untyped-def]
        def record(answer: Answer) -> None:
            with self.lock:
                self.got[name] = answer

        return record


def test_one_accounts_stalled_receivers_delay_nobody_else(receivers):
    courier = Courier(Rules(in_flight=16, deadline_s=300, allowed=LOOPBACK))
    hostile = [start(receivers, trickle) for _ in range(3)] + [
        start(receivers, silent) for _ in range(2)
    ]
    answers = Answers()
    taken = 0
    for n in range(20):  # far more than an account may have under way
        _, url = hostile[n % 5]
        slot = courier.reserve(url, "mallory")
        if slot is not None:
            slot.send(Letter(url, b"{}", "mallory"), answers.done(f"m{n}"))
            taken += 1
    assert taken == courier.rules.per_owner, "an account holds at most its share"
    wait_for(lambda: sum(r.open_now for r, _ in hostile) == taken)

    victim, url = start(receivers, ok(), host="127.0.0.2")  # another host
    slot = courier.reserve(url, "victim")
    assert slot is not None, "room for everyone else while one account stalls"
    slot.send(Letter(url, b'{"a":1}', "victim"), answers.done("victim"))
    wait_for(lambda: "victim" in answers.got)
    assert answers.got["victim"].ok and victim.requests[0].endswith(b'{"a":1}')
    # Delivered while every one of the hostile receivers still held its request.
    assert sum(r.open_now for r, _ in hostile) == taken
    assert set(answers.got) == {"victim"}


def test_a_destination_takes_at_most_two_at_once_whoever_sends(receivers):
    courier = Courier(Rules(deadline_s=300, allowed=LOOPBACK))
    _, url = start(receivers, silent)
    slots = [courier.reserve(url, f"owner{n}") for n in range(5)]
    assert [s is not None for s in slots] == [True, True, False, False, False]
    other_port = courier.reserve(start(receivers, silent)[1], "owner9")
    assert other_port is not None, "another destination has its own room"
    slots[0].release()  # given back unused
    assert courier.reserve(url, "owner7") is not None


def test_a_trickling_answer_ends_at_the_deadline(receivers):
    courier = Courier(Rules(deadline_s=1.5, allowed=LOOPBACK))
    receiver, url = start(receivers, trickle)
    answer = Answers()
    slot = courier.reserve(url, "a")
    assert slot is not None
    slot.send(Letter(url, b"{}", "a"), answer.done("x"))
    wait_for(lambda: "x" in answer.got)  # without a whole-attempt deadline: never
    assert answer.got["x"].error == "timeout" and answer.got["x"].status is None
    assert 0 < receiver.sent < 1000
    assert courier.under_way() == 0, "the slot is free again"


def test_a_huge_answer_is_read_only_so_far(receivers):
    courier = Courier(Rules(allowed=LOOPBACK))
    receiver, url = start(receivers, endless)
    answer = courier.deliver(Letter(url, b"{}", "a"))
    assert answer.status == 200 and len(answer.body) == courier.rules.max_body
    wait_for(lambda: receiver.open_now == 0)  # the receiver's next writes failed
    assert receiver.sent < 32 * 1024 * 1024, "nowhere near the 400 MiB it offered"


def test_a_redirect_is_an_answer_and_nothing_private_is_called(receivers):
    receiver, url = start(receivers, ok(302, "Location: http://127.0.0.1:9/x\r\n"))
    courier = Courier(Rules(allowed=LOOPBACK))
    answer = courier.deliver(Letter(url, b"{}", "a"))
    assert answer.status == 302 and not answer.ok and len(receiver.requests) == 1
    strict = Courier(Rules())  # loopback not allowed
    refused = strict.deliver(Letter(url, b"{}", "a"))
    assert refused.status is None and "private" in (refused.error or "")
    assert len(receiver.requests) == 1


def test_a_refused_connection_is_an_error_not_an_exception():
    courier = Courier(Rules(allowed=LOOPBACK))
    answer = courier.deliver(Letter("http://127.0.0.1:9/x", b"{}", "a"))
    assert answer.status is None and answer.error == "connection refused"


def test_https_is_verified_against_the_host_name(receivers, tmp_path: Path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)  # fmt: skip
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    receiver, url = start(receivers, ok(201), tls=server)
    url = url.replace("127.0.0.1", "localhost")
    trusting = ssl.create_default_context(cafile=str(cert))
    courier = Courier(Rules(allowed=Allowed.parse("localhost")), tls=trusting)
    answer = courier.deliver(Letter(url, b"{}", "a"))
    assert answer.status == 201 and receiver.requests[0].startswith(b"POST /hook HTTP/1.1")
    assert b"\r\nHost: localhost:" in receiver.requests[0]
    untrusting = Courier(Rules(allowed=Allowed.parse("localhost")))
    failed = untrusting.deliver(Letter(url, b"{}", "a"))
    assert failed.status is None and (failed.error or "").startswith("tls")


# Status lines and headers that pass str.isdigit() but are no ASCII digits, and
# numbers too large to mean anything: each ends as an answer or an error, never as
# an exception.
HOSTILE_HEADS = {
    "superscript status": (b"HTTP/1.1 \xb200 OK\r\nContent-Length: 2\r\n\r\nok", None),
    "arabic-indic status": ("HTTP/1.1 ٢٠٠ OK\r\n\r\n".encode(), None),
    "two-digit status": (b"HTTP/1.1 20 OK\r\n\r\n", None),
    "huge status": (b"HTTP/1.1 99999999999999999999 OK\r\n\r\n", None),
    "superscript length": (b"HTTP/1.1 200 OK\r\nContent-Length: \xb2\r\n\r\nok", 200),
    "huge length": (b"HTTP/1.1 200 OK\r\nContent-Length: 9" + b"9" * 40 + b"\r\n\r\nok", 200),
    "retry-after superscript": (b"HTTP/1.1 429 Slow\r\nRetry-After: \xb2\r\n\r\n", 429),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_HEADS))
def test_a_hostile_answer_is_an_answer_or_an_error_never_an_exception(receivers, name):
    head, status = HOSTILE_HEADS[name]
    _, url = start(receivers, raw(head))
    courier = Courier(Rules(deadline_s=5, allowed=LOOPBACK))
    answer = courier.deliver(Letter(url, b"{}", "ada"))
    assert answer.status == status, answer
    assert (answer.error is None) == (status is not None), answer


def test_numbers_in_headers_are_ascii_digits_and_bounded():
    from stacks_api.outbound.http import number

    assert number("120", 86400) == 120
    assert number("²", 86400) is None and number("١٢", 86400) is None
    assert number("86401", 86400) is None and number("9" * 50, 86400) is None
    assert number("", 10) is None and number(None, 10) is None and number("-1", 10) is None


def test_the_last_slots_wait_for_an_account_with_nothing_under_way(receivers):
    """Accounts already sending fill all but the reserved slots; an account with
    nothing under way takes one of those."""
    courier = Courier(Rules(in_flight=8, reserved=2, per_origin=8, allowed=LOOPBACK))
    _, url = start(receivers, silent)
    held = []
    for owner in ("hostile-1", "hostile-2"):
        while (slot := courier.reserve(url, owner)) is not None:
            held.append(slot)
    assert len(held) == 6, "accounts already sending leave the reserved two"
    fresh = courier.reserve(url, "victim")
    assert fresh is not None and courier.reserve(url, "victim") is None
    assert courier.reserve(url, "hostile-1") is None
    for slot in [*held, fresh]:
        slot.release()


def test_a_failing_destination_gets_one_letter_at_a_time(receivers):
    courier = Courier(Rules(deadline_s=0.3, per_origin=2, sick_in_flight=2, allowed=LOOPBACK))
    sick = [start(receivers, silent)[1] for _ in range(3)]
    answers = Answers()
    for n, url in enumerate(sick):  # each times out: now it is failing
        slot = courier.reserve(url, f"p{n}")
        assert slot is not None
        slot.send(Letter(url, b"{}", f"p{n}"), answers.done(url))
    wait_for(lambda: len(answers.got) == 3 and courier.under_way() == 0)
    assert all(a.error == "timeout" for a in answers.got.values())
    first = courier.reserve(sick[0], "p0")
    assert first is not None and courier.reserve(sick[0], "p0") is None, "one at a time"
    second = courier.reserve(sick[1], "p1")
    assert second is not None and courier.reserve(sick[2], "p2") is None, "two sick in all"
    _, healthy = start(receivers, ok())
    assert courier.reserve(healthy, "p9") is not None, "the healthy are not held back"
