"""On demand (`--idle-close`): a live channel nobody watches closes its input within idle-close
+ 1 s (GET /api/channels says `idle`), its threads then sleep — each wakes at most once a second,
read from /proc — and the next viewer gets pictures again. The stream is a real UDP MPEG-TS feed
from the ffmpeg CLI. The timer and the player's steps are tested in process:
Tests/MediaKitTests/PlayerOnDemandTests.swift."""

import json
import os
import threading
import time

import pytest

from fc_client import Client, run
from live_feed import LiveFeed
from test_e2e_idle import cpu_seconds
from test_e2e_live import start_when_listening
from test_e2e_recording import wait_state

IDLE_CLOSE = 1.0
# Threads of the server, no channel's: the network thread and the ticker that wakes it four
# times a second (periodic state, timeouts), the stop-signal thread, the main thread and lws'.
SHARED_THREADS = {"network", "ticker", "signals", "filtercast"}


@pytest.fixture
def feed():
    feed = LiveFeed("udp").start()
    yield feed
    feed.stop()


def channel(server, name="main") -> dict:
    return next(c for c in json.loads(server.get("/api/channels").body) if c["name"] == name)


def thread_wakes(pid: int) -> dict:
    """{(tid, name): voluntary context switches so far}: each is a sleep the thread woke from."""
    wakes = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as comm, open(f"/proc/{pid}/task/{tid}/status") as status:
                name = comm.read().strip()
                switches = next(int(line.split()[1]) for line in status if line.startswith("voluntary_ctxt_switches"))
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended meanwhile
        wakes[(tid, name)] = switches
    return wakes


class SnapshotPoller:
    """GET /snapshot.jpg once a second on a thread of its own, as the page's Channels panel does
    (every 4 s): each answer's status, how long it took, and how long a /healthz asked just before
    took (the same server's answer time for a request that does no work: the peer figure)."""

    def __init__(self, server):
        self.server, self.answers, self.stopped = server, [], threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while True:
            asked = time.monotonic()
            assert self.server.get("/healthz").status == 200
            healthz = time.monotonic() - asked
            asked = time.monotonic()
            response = self.server.get("/snapshot.jpg", timeout=10)
            self.answers.append((response.status, time.monotonic() - asked, response.body[:2], healthz))
            if self.stopped.wait(1.0):
                return

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stopped.set()
        self.thread.join(timeout=15)


def test_an_idle_live_channel_closes_sleeps_and_opens_for_the_next_viewer(start_server, feed):
    server = start_when_listening(start_server, feed, "--idle-close", str(IDLE_CLOSE))

    async def watch():
        async with await Client.connect(server.ws_url()) as client:
            await wait_state(client, lambda s: s["source"]["online"], "the stream plays", timeout=10)
            await client.frames(3)
        return time.monotonic()
    # A page's thumbnails keep asking for snapshots: they neither keep the input open nor open it.
    with SnapshotPoller(server) as poller:
        left = run(watch())
        assert not channel(server)["idle"], "closed while watched"

        # Late only if a request sent after the deadline still finds it open (a slow answer to an
        # earlier request is not the server's idling late).
        while True:
            asked = time.monotonic()
            if channel(server)["idle"]:
                break
            assert asked - left < IDLE_CLOSE + 1, "the input was not closed within --idle-close + 1 s"
            time.sleep(0.05)
        closed_after = time.monotonic() - left
        # Snapshots of the idle channel: the last real picture at once, the input left closed.
        asked_before = len(poller.answers)
        deadline = time.monotonic() + 10
        while len(poller.answers) < asked_before + 2:
            assert time.monotonic() < deadline, "the snapshot poller got no answers"
            time.sleep(0.05)
        assert channel(server)["idle"], "a snapshot opened the input"
    assert all(status == 200 and start == b"\xff\xd8" for status, _, start, _ in poller.answers), poller.answers
    # At once: an idle channel's snapshot is the last picture kept, answered about as fast as a
    # /healthz just before it (opening the input would take seconds); judged against that peer, so a
    # loaded machine's slow answers do not count against it.
    idle_answers = [(took, healthz) for _, took, _, healthz in poller.answers[asked_before:]]
    assert all(took < healthz + 0.3 for took, healthz in idle_answers), \
        f"an idle channel's snapshot took longer than a /healthz + 0.3 s: {idle_answers}"
    idle = channel(server)
    assert not idle["online"] and idle["viewers"] == 0
    state = json.loads(server.get("/api/state").body)
    assert "nobody watches" in state["source"]["reason"], state["source"]

    # Asleep: every thread of the channel wakes at most once a second, and the process costs little.
    # Counted, not a rate: a thread woken once a second wakes floor(T) or floor(T) + 1 times in a
    # window of T s (depending on where the window's edges fall), and T is measured from the first
    # read's start to the last one's end, which only overstates it.
    seconds = 5.0
    started = time.monotonic()
    before, cpu_before = thread_wakes(server.proc.pid), cpu_seconds(server.proc.pid)
    time.sleep(seconds)
    after, cpu_after = thread_wakes(server.proc.pid), cpu_seconds(server.proc.pid)
    elapsed = time.monotonic() - started
    wakes = {key: after[key] - before[key] for key in after if key in before}
    measured = ", ".join(f"{name} {count}" for (_, name), count in sorted(wakes.items(), key=lambda item: -item[1]))
    share = (cpu_after - cpu_before) / elapsed
    print(f"closed {closed_after:.2f} s after the viewer left; wakes in {elapsed:.2f} s: {measured}; CPU {share:.2%} of a core")
    busy = {name: count for (_, name), count in wakes.items() if name not in SHARED_THREADS and count > int(elapsed) + 1}
    assert not busy, f"threads of the idle channel woke more than once a second: {measured} in {elapsed:.2f} s"
    assert share < 0.03, f"{share:.1%} of a core while the channel is closed"

    async def come_back():
        async with await Client.connect(server.ws_url()) as client:
            asked = time.monotonic()
            await wait_state(client, lambda s: s["source"]["online"], "the stream is open again", timeout=10)
            await client.frames(3)
            return time.monotonic() - asked
    reopened_in = run(come_back())
    print(f"pictures again {reopened_in:.2f} s after a viewer came")
    assert reopened_in < 5, f"{reopened_in:.1f} s to reopen"
    assert not channel(server)["idle"]
