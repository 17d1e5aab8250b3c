"""The review room (issue 40, items 1–3) against a real server with named clients: one person per
page (`?person=`), names, who changed what (`changedBy`, `activity`, `GET /api/activity`, a
recording's sidecar), a slider drag coalesced into one entry, the presenter (`not_presenter`, the
admin's force, released on leave), the laser pointer relayed at most 30 a second per sender.
The rules' edges are the Swift tests' (RoomTests, ServerCoreTests+Room)."""

from __future__ import annotations

import asyncio
import json
import time

from fc_client import Client, run

ADMIN = "b0ss-T0ken"


def people(state: dict) -> list[str]:
    return [person["name"] for person in state.get("people", [])]


def test_a_pages_two_connections_are_one_person_and_names_are_shown(start_server, sample_clip):
    server = start_server("--input", str(sample_clip))

    async def scenario():
        ana = await Client.connect(server.ws_url(person="page-ana", name="Ana María"))
        ana_second = await Client.connect(server.ws_url(person="page-ana"))
        guest = await Client.connect(server.ws_url())
        try:
            state = await guest.next_json("state", where=lambda s: len(s.get("people", [])) == 2, timeout=5)
            assert state["viewers"] == 2, "the page's second connection is not counted again"
            assert people(state) == ["Ana María", "Guest 2"] and state["you"]["name"] == "Guest 2"
            refused = await guest.command({"type": "name", "name": "x" * 41})
            assert refused["code"] == "invalid_argument" and "name.name" in refused["message"]
            await guest.ok({"type": "name", "name": "  Bob "})
            state = await ana.next_json("state", where=lambda s: "Bob" in people(s), timeout=5)
            assert people(state) == ["Ana María", "Bob"] and state["you"]["name"] == "Ana María"
            await ana.close()
            state = await guest.next_json("state", where=lambda s: s["viewers"] == 2, timeout=5)
            assert people(state) == ["Ana María", "Bob"], "Ana's second connection keeps her here"
            await ana_second.close()
            state = await guest.next_json("state", where=lambda s: s["viewers"] == 1, timeout=5)
            assert people(state) == ["Bob"]
        finally:
            for client in (ana, ana_second, guest):
                await client.close()
    run(scenario(), timeout=40)


def test_every_kind_of_change_is_attributed_and_a_drag_is_one_entry(start_server, sample_clip, tmp_path):
    server = start_server("--input", str(sample_clip))

    async def scenario():
        ana = await Client.connect(server.ws_url(name="Ana"))
        bob = await Client.connect(server.ws_url(name="Bob"))
        try:
            await ana.ok({"type": "record", "action": "start"})
            changes = [(ana, {"type": "setFilter", "name": "sepia"}, "setFilter", "Ana switched the look to sepia"),
                       (bob, {"type": "pause"}, "pause", "Bob paused"),
                       (ana, {"type": "seek", "position": 1.5}, "seek", "Ana jumped to 0:01.5"),
                       (bob, {"type": "step", "frames": 2}, "step", "Bob stepped 2 frames forward"),
                       (ana, {"type": "setCompare", "on": True}, "setCompare", "Ana showed the compare view"),
                       (bob, {"type": "play"}, "play", "Bob pressed play")]
            for client, command, what, summary in changes:
                await client.ok(command)
                entry = await bob.next_json("activity", where=lambda a: a["what"] == what, timeout=5)
                assert entry["summary"] == summary and entry["by"]["name"] == summary.split()[0], entry
                assert entry["at"].endswith("Z") and isinstance(entry["frame"], int) and entry["position"] >= 0
                state = await ana.next_json("state", where=lambda s: s.get("changedBy", {}).get("name") == summary.split()[0], timeout=5)
                assert state["changedBy"]["id"] == entry["by"]["id"]

            # A drag: ten moves in well under 2 s are one message now and one later, with the last value.
            for step in range(10):
                await ana.send_json({"type": "setParams", "params": {"intensity": round(0.1 * (step + 1), 2)}})
                await asyncio.sleep(0.03)
            first = await bob.next_json("activity", where=lambda a: a["what"] == "setParams", timeout=5)
            assert first["summary"] == "Ana set sepia intensity 0.1", first
            later = await bob.next_json("activity", where=lambda a: a["what"] == "setParams", timeout=5)
            assert later["id"] == first["id"] and later["summary"] == "Ana set sepia intensity 1", later
            quiet = [m for m in await bob.collect(2.3) if isinstance(m, dict) and m.get("what") == "setParams"]
            assert quiet == [], f"nothing more after the drag: {quiet}"
            await ana.ok({"type": "record", "action": "stop"})
        finally:
            await ana.close()
            await bob.close()
    run(scenario(), timeout=60)

    listed = json.loads(server.get("/api/activity").body)
    whats = [entry["what"] for entry in listed["activity"]]
    assert whats == ["record", "setFilter", "pause", "seek", "step", "setCompare", "play", "setParams", "record"], whats
    assert listed["activity"][-2]["summary"] == "Ana set sepia intensity 1", "the list keeps the drag's last value"
    sidecars = list((tmp_path / "recordings").glob("*.mp4.json"))
    assert len(sidecars) == 1, sidecars
    sidecar = json.loads(sidecars[0].read_text())
    kept = [entry["what"] for entry in sidecar["activity"]]
    assert kept == whats[:-1], "who started it and every change until it stopped"
    assert len(sidecar["looks"]) >= 2, "the looks beside it"


def test_the_presenter_drives_playback_until_the_admin_takes_over_or_they_leave(start_server, sample_clip):
    server = start_server("--input", str(sample_clip), "--admin-token", ADMIN, "--token", "t0ken", "--public-view")

    async def scenario():
        ana = await Client.connect(server.ws_url(name="Ana", token="t0ken"))
        bob = await Client.connect(server.ws_url(name="Bob", token="t0ken"))
        admin = await Client.connect(server.ws_url(name="Cy", token=ADMIN))
        watcher = await Client.connect(server.ws_url(name="Dee"))
        try:
            await ana.ok({"type": "present", "action": "take"})
            state = await bob.next_json("state", where=lambda s: s.get("presenter") is not None, timeout=5)
            assert state["presenter"]["name"] == "Ana"
            assert [p["name"] for p in state["people"] if p["presenter"]] == ["Ana"]
            for command in ({"type": "seek", "position": 1}, {"type": "pause"}, {"type": "step", "frames": 1}):
                refused = await bob.command(command)
                assert refused["code"] == "not_presenter" and "Ana" in refused["message"], refused
            await bob.ok({"type": "setFilter", "name": "invert"})  # looks stay open
            await ana.ok({"type": "seek", "position": 1})
            refused = await bob.command({"type": "present", "action": "take", "force": True})
            assert refused["code"] == "not_presenter", "only the admin takes it over"
            refused = await watcher.command({"type": "present", "action": "take"})
            assert refused["code"] == "unauthorized"
            await admin.ok({"type": "present", "action": "take", "force": True})
            refused = await ana.command({"type": "pause"})
            assert refused["code"] == "not_presenter" and "Cy" in refused["message"]
            activity = await bob.next_json("activity", where=lambda a: a["what"] == "present" and a["by"]["name"] == "Cy", timeout=5)
            assert activity["summary"] == "Cy presents"
            await admin.close()
            state = await bob.next_json("state", where=lambda s: "Cy" not in people(s), timeout=5)
            assert state["presenter"] is None, "leaving releases"
            await bob.ok({"type": "pause"})
        finally:
            for client in (ana, bob, admin, watcher):
                await client.close()
    run(scenario(), timeout=40)


def test_pointers_reach_everyone_at_most_thirty_a_second(start_server):
    server = start_server("--input", "test:160x120@25", "--token", "t0ken", "--public-view")

    async def scenario():
        ana = await Client.connect(server.ws_url(name="Ana", token="t0ken"), auto_ack=True)
        watcher = await Client.connect(server.ws_url(name="Dee"))
        try:
            await watcher.collect(0.2)
            started = time.monotonic()
            # Back to back: a burst far over 30 a second on any machine (paced sends would stretch
            # past the server's one-second window on a loaded one); the first 30 go through.
            for step in range(60):
                await ana.send_json({"type": "point", "x": step / 60, "y": 0.5})
            burst = time.monotonic() - started
            assert burst < 0.8, f"the 60 moves took {burst:.2f} s: the window would not hold them"
            await asyncio.sleep(1.0)
            await ana.send_json({"type": "point", "x": None, "y": None})
            # Everything relayed of the burst arrives before the hide, which a second later goes through.
            await watcher.next_json("pointer", where=lambda p: p["x"] is None, timeout=5)
            pointers = [m for m in watcher.json_received if m.get("type") == "pointer" and m["x"] is not None]
            # A slow reader may get only a sender's newest waiting move (latest wins): never one over the rate.
            relayed = [p["x"] for p in pointers]
            assert 1 <= len(relayed) <= 30 and all(x < 30 / 60 for x in relayed), f"relayed {relayed} of 60 sent in {burst:.2f} s"
            assert pointers[0]["by"]["name"] == "Ana" and pointers[0]["y"] == 0.5
            refused = await watcher.command({"type": "point", "x": 0.5, "y": 0.5})
            assert refused["code"] == "unauthorized", "a watch-only viewer does not point"
            refused = await ana.command({"type": "point", "x": 1.5, "y": 0.5})
            assert refused["code"] == "out_of_range" and "point.x" in refused["message"]
        finally:
            await ana.close()
            await watcher.close()
    run(scenario(), timeout=30)
