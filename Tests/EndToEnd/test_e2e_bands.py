"""--filter-threads: filters that split a frame into bands or into passes of parts give the very
same picture."""
from fc_client import Client, run

CHAIN = [{"name": "kaleidoscope", "params": {"count": 5}}, {"name": "hueAdjust", "params": {"angle": 1}},
         {"name": "crystallize", "params": {"radius": 40}}, {"name": "gaussianBlur", "params": {"radius": 4}},
         {"name": "unsharpMask", "params": {"intensity": 1}}]


async def picture(server) -> bytes:
    """The JPEG of the clip's frame at 1 s under CHAIN, paused (a re-render of one picture)."""
    async with await Client.connect(server.ws_url()) as client:
        await client.ok({"type": "pause"})
        await client.ok({"type": "seek", "position": 1.0})
        await client.next_frame(timeout=10, where=lambda f: f.state_changed and abs(f.pts - 1.0) < 0.02)
        await client.ok({"type": "setFilter", "chain": CHAIN})
        frame = await client.next_frame(timeout=10, where=lambda f: f.state_changed)
        return frame.jpeg


def test_banded_filters_give_the_same_picture_as_one_thread(start_server, sample_clip):
    one = run(picture(start_server("--input", str(sample_clip), "--filter-threads", "1")))
    two = run(picture(start_server("--input", str(sample_clip), "--filter-threads", "2")))
    assert len(one) > 1000 and one == two
