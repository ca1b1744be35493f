"""``stacks-api serve``'s supervisor: how long it waits before restarting a dead child."""

import sys

from stacks_api.runtime.supervisor import HEALTHY_AFTER_S, RESTART_BACKOFF_S, Child


def died(child: Child, ran: float) -> float:
    """Start the child (a process that exits at once), let it have run ``ran`` seconds,
    and return the delay ``reap`` schedules before its restart (rounded: the clock's
    large values leave a float's last digits in ``restart_at - now``)."""
    child.start()
    assert child.process is not None
    child.process.wait()
    now = child.started + ran
    child.reap(now)
    assert child.process is None
    return round(child.restart_at - now, 6)


def test_the_back_off_grows_while_a_child_keeps_dying_and_starts_over_after_a_healthy_run():
    child = Child("test child", [sys.executable, "-c", "raise SystemExit(3)"])
    quick = [died(child, ran=1.0) for _ in range(len(RESTART_BACKOFF_S) + 2)]
    assert quick == [*RESTART_BACKOFF_S, RESTART_BACKOFF_S[-1], RESTART_BACKOFF_S[-1]]
    # A microsecond over: (started + 30) - started can come back as 29.999999999999773.
    healthy = HEALTHY_AFTER_S + 1e-6
    assert died(child, ran=healthy) == RESTART_BACKOFF_S[0], "a healthy run starts over"
    assert died(child, ran=1.0) == RESTART_BACKOFF_S[1]


def test_a_child_still_running_is_left_alone():
    child = Child("sleeper", [sys.executable, "-c", "import time; time.sleep(30)"])
    child.start()
    try:
        child.reap(child.started + 100)
        assert child.process is not None and child.process.poll() is None
    finally:
        assert child.process is not None
        child.process.kill()
        child.process.wait(timeout=10)


def test_a_death_is_logged_with_its_cause(capfd):
    child = Child("bot worker 9", [sys.executable, "-c", "raise SystemExit(3)"])
    died(child, ran=40.0)
    logged = capfd.readouterr().err
    assert "bot worker 9" in logged and "exited with status 3 after 40.0 s" in logged
    assert f"restarting it in {RESTART_BACKOFF_S[0]:g} s" in logged
