/*
 * fanout — a cheap WebSocket load generator for `filtercast serve` (protocol v1).
 *
 * One libwebsockets client context, one service thread, N viewer connections to
 * ws://HOST:PORT/ws (--path: another, e.g. /ws?channel=NAME) with subprotocol "filtercast.v1". Each viewer receives frames (reassembling
 * fragmented messages), checks the 32-byte header and that the JPEG runs from SOI to EOI,
 * acknowledges every frame with {"type":"frameAck","seq":N} and measures its delivered fps and
 * the send→receive latency (receive time − the header's server send time; same host, same clock).
 *
 * Two ways to speak WebSocket, both on lws client connections in the one context:
 *   --client raw (default)  lws connects and polls a raw socket and hands over what it reads in
 *                           bulk; the upgrade request and the frame parsing (and masking of what
 *                           we send) are done here. Cheap: ~16% of a core for 200 viewers.
 *   --client lws            lws' own WebSocket client role (LWS_CALLBACK_CLIENT_RECEIVE, messages
 *                           reassembled until lws_is_final_fragment() and
 *                           lws_remaining_packet_payload() == 0). lws 4.1 parses client frames a
 *                           byte at a time: ~95% of a core at 200 viewers (2 Gbit/s), which on a
 *                           2-core machine starves the server. Kept to cross-check the raw parser.
 * Only each message's first 34 and last 2 bytes are kept either way.
 *
 * Phases: connect every viewer (at most 16 handshakes in flight), wait until each has a frame
 * (30 s at most), warm up, then measure for the given duration; prints one JSON line on stdout.
 *
 *   fanout [--host H] [--port P] [--viewers N] [--duration S] [--warmup S] [--client raw|lws]
 *          [--slow FPS [--slow-count K | --slow-fraction F] [--slow-mode sleep|ack]]
 *          [--filter-switch [--switch-ms MS]]
 *          [--window W] [--pid SERVER_PID]
 *
 * --slow FPS        K viewers (default 1; the last ones) read at FPS. --slow-mode sleep (default):
 *                   after each frame a slow viewer stops reading (lws_rx_flow_control off) for
 *                   1/FPS s — a page that takes that long to show a frame — then acknowledges that
 *                   frame and reads on; its latency is taken when it reads a frame, so it includes
 *                   the time the frame waited in the socket. --slow-mode ack: it reads everything
 *                   at once but shows and acknowledges the newest frame only FPS times a second.
 *                   slow_shown_age_ms: how old (since its send time) each frame it showed was.
 * --filter-switch   viewer 0 sends setFilter every --switch-ms (default 500) ms, alternating
 *                   "none" / "sepia"; every viewer times sending → its first frame with flag
 *                   bit 0 (or, if it was not sent that frame, the first one after it).
 * --window W        send {"type":"flow","window":W} on connect (default: the server's, 2).
 * --pid PID         sample the server over exactly the measurement window: CPU of the process
 *                   and of each thread by name (/proc/PID/task/TID/stat utime+stime), time each
 *                   thread spent runnable but waiting for a core (…/schedstat), RSS and VmHWM.
 *
 * Output (one JSON line): fps over viewers (min/median/max/mean, how many < 29), latency_ms
 * (p50/p95/p99/max over all frames), age_excess_ms (receive time − pts, less its minimum: the
 * delay a frame met before its send-time stamp too, such as the server's pass over all viewers),
 * slow_* for --slow, switch_ms for --filter-switch (switch_until_written_ms: the part until the
 * server stamped the frame at its write), client_cpu_pct (this program), machine
 * (whole-machine busy % of one core), server {cpu_pct, threads, runq_wait_pct, rss, hwm}.
 *
 * Build: cc -O2 -o fanout bench/fanout.c $(pkg-config --cflags --libs libwebsockets)
 */
#define _GNU_SOURCE
#include <libwebsockets.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define HEADER_SIZE 32
#define UNIT_HEADER_SIZE 40
#define MAX_SWITCHES 4096
#define MAX_THREADS 64

enum phase { CONNECTING, WARMUP, MEASURING, DONE };

struct viewer {
    struct lws *wsi;
    int index;
    int established, closed, failed;
    int slow;
    /* Message being received */
    unsigned char head[UNIT_HEADER_SIZE + 2];
    size_t got;              /* bytes of the current message so far */
    unsigned char tail[2];   /* its last two bytes */
    /* Frames */
    uint64_t last_seq;       /* newest frame received */
    uint64_t showing;        /* slow reader: the frame it is busy with */
    int64_t show_at;         /* --slow-mode ack: when it shows (acknowledges) the newest frame */
    int64_t showing_sent;    /* the server send time of `showing` */
    uint64_t ack_upto;       /* newest frame to acknowledge */
    uint64_t acked;          /* newest frame acknowledged */
    int ack_due;
    int flow_due;
    int watch_due;
    long frames_total, frames_measured, bad_frames, text_messages, sound_packets;
    long long bytes_measured;
    /* Slow reader: reading is paused until this (µs, monotonic); 0 = reading */
    int64_t paused_until;
    /* Filter switch in progress that this viewer has not seen yet (index + 1, 0 = none) */
    int switch_waiting;
    /* --client raw: our own handshake and WebSocket frame parser */
    int handshake_due;
    char response[2048];
    size_t response_got;
    unsigned char fh[14];    /* frame header being read */
    size_t fh_got;
    uint64_t payload_left;   /* of the current frame */
    int in_payload, frame_fin, frame_op, message_op;
    unsigned char control[125];
    size_t control_got;
    int pong_due;
    unsigned char pong[125];
    size_t pong_len;
    unsigned char *pending;  /* bytes read but not parsed while a slow reader is "busy" */
    size_t pending_len, pending_off, pending_cap;
};

static struct {
    const char *host;
    int port, n, window, switch_ms, filter_switch;
    double duration, warmup, slow_fps, slow_fraction;
    int slow_count;
    int pid;
    int raw;
    int slow_ack;
    const char *watch; /* --watch RENDITION: {"type":"watch",…} once connected (h264-…: access units) */
    int audio;         /* --audio: that watch asks for the sound too (FCA1 packets, counted, not frames) */
    const char *path;  /* --path PATH: the WebSocket's path and query, e.g. /ws?channel=cam (default /ws) */
} opt = { "127.0.0.1", 8080, 1, -1, 500, 0, 20, 2, 0, -1, -1, 0, 1, 0, NULL, 0, "/ws" };

static struct lws_context *context;
static struct viewer *viewers;
static enum phase phase = CONNECTING;
static int next_to_connect, established, failed, closed_early, with_frame;
static int64_t phase_started, measure_start, measure_end, connect_started;
static volatile sig_atomic_t interrupted;

/* Latency samples (µs), growable. */
struct samples { int64_t *v; size_t n, cap; };
static struct samples latency_fast, latency_slow, shown_slow, age_raw, switch_all, switch_controller, switch_server;

/* Filter switching */
static int switch_count, switch_pending_send, switches_missed, switches_unflagged;
static int64_t switch_sent_at[MAX_SWITCHES];
static uint64_t switch_flag_seq[MAX_SWITCHES];
static int64_t next_switch_at;

/* Server CPU sampling */
struct thread_sample { int tid; char name[32]; long long ticks, wait_ns; };
static struct thread_sample threads_before[MAX_THREADS], threads_after[MAX_THREADS];
static int nthreads_before, nthreads_after;
static long long proc_ticks_before, proc_ticks_after;
static long rss_before_kb, rss_after_kb, hwm_kb;
static struct rusage self_before, self_after;

static lws_sorted_usec_list_t tick_sul;

static int64_t now_realtime_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t now_mono_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void push(struct samples *s, int64_t value) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4096;
        if (cap > ((size_t)64 << 20)) return;   /* bounded: 64 Mi samples */
        int64_t *v = realloc(s->v, cap * sizeof *v);
        if (!v) return;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = value;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted values. */
static int64_t percentile(const struct samples *s, double p) {
    if (s->n == 0) return -1;
    size_t rank = (size_t)(p / 100.0 * (double)s->n + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > s->n) rank = s->n;
    return s->v[rank - 1];
}

static uint64_t le64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static unsigned le16(const unsigned char *p) { return (unsigned)p[0] | ((unsigned)p[1] << 8); }

/* ---- /proc sampling ---------------------------------------------------------------------- */

/* utime + stime (clock ticks) from a /proc/…/stat file; -1 when unreadable. */
static long long stat_ticks(const char *path, char *name, size_t name_size) {
    char buffer[1024];
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t len = fread(buffer, 1, sizeof buffer - 1, f);
    fclose(f);
    buffer[len] = 0;
    char *open = strchr(buffer, '('), *close = strrchr(buffer, ')');
    if (!open || !close) return -1;
    if (name) {
        size_t n = (size_t)(close - open - 1);
        if (n >= name_size) n = name_size - 1;
        memcpy(name, open + 1, n);
        name[n] = 0;
    }
    /* Fields after ")": state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15) */
    char *p = close + 2;
    long long utime = 0, stime = 0;
    if (sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld", &utime, &stime) != 2) return -1;
    return utime + stime;
}

static long status_kb(const char *key) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", opt.pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long value = -1;
    size_t keylen = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, keylen) == 0 && line[keylen] == ':') { value = atol(line + keylen + 1); break; }
    fclose(f);
    return value;
}

/* Time spent runnable but waiting for a CPU (ns), from a schedstat file; 0 when unknown. */
static long long schedstat_wait(const char *path) {
    long long run = 0, wait = 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    if (fscanf(f, "%lld %lld", &run, &wait) != 2) wait = 0;
    fclose(f);
    return wait;
}

static long long self_wait_before, self_wait_after;

/* Whole machine, from /proc/stat's "cpu" line (ticks): [0] busy but softirq, [1] softirq, [2] all. */
static long long system_before[3], system_after[3];

static void sample_system(long long out[3]) {
    long long v[10] = {0};
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return;
    int n = fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7], &v[8], &v[9]);
    fclose(f);
    if (n < 8) return;
    /* user nice system idle iowait irq softirq steal (guest time is already in user) */
    out[2] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    out[1] = v[6];
    out[0] = out[2] - v[3] - v[4] - v[6];
}

static int sample_threads(struct thread_sample *out) {
    char path[320];
    snprintf(path, sizeof path, "/proc/%d/task", opt.pid);
    DIR *dir = opendir(path);
    if (!dir) return 0;
    int n = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) && n < MAX_THREADS) {
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/%d/task/%s/stat", opt.pid, entry->d_name);
        long long ticks = stat_ticks(path, out[n].name, sizeof out[n].name);
        if (ticks < 0) continue;
        out[n].tid = atoi(entry->d_name);
        out[n].ticks = ticks;
        snprintf(path, sizeof path, "/proc/%d/task/%s/schedstat", opt.pid, entry->d_name);
        out[n].wait_ns = schedstat_wait(path);
        n++;
    }
    closedir(dir);
    return n;
}

static void sample_server(int after) {
    getrusage(RUSAGE_SELF, after ? &self_after : &self_before);
    *(after ? &self_wait_after : &self_wait_before) = schedstat_wait("/proc/thread-self/schedstat");
    sample_system(after ? system_after : system_before);
    if (opt.pid <= 0) return;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", opt.pid);
    if (after) {
        proc_ticks_after = stat_ticks(path, NULL, 0);
        nthreads_after = sample_threads(threads_after);
        rss_after_kb = status_kb("VmRSS");
        hwm_kb = status_kb("VmHWM");
    } else {
        proc_ticks_before = stat_ticks(path, NULL, 0);
        nthreads_before = sample_threads(threads_before);
        rss_before_kb = status_kb("VmRSS");
    }
}

/* ---- viewers ------------------------------------------------------------------------------ */

static void connect_viewer(struct viewer *v) {
    struct lws_client_connect_info info;
    memset(&info, 0, sizeof info);
    info.context = context;
    info.address = opt.host;
    info.port = opt.port;
    info.path = opt.path;
    info.host = opt.host;
    info.origin = NULL;   /* a command-line client sends no Origin */
    if (opt.raw) {
        /* A plain TCP connection that lws polls and reads in bulk; the WebSocket upgrade and
         * framing are done here (lws' own client parser handles frames a byte at a time,
         * which costs a whole core at ~2 Gbit/s). */
        info.method = "RAW";
        info.local_protocol_name = "filtercast.v1";
    } else {
        info.protocol = "filtercast.v1";
    }
    info.opaque_user_data = v;
    info.pwsi = &v->wsi;
    if (!lws_client_connect_via_info(&info)) {
        v->failed = 1;
        failed++;
    }
}

/* The end of one complete message from the server. */
static void message_done(struct viewer *v, int binary) {
    if (!binary) {
        v->text_messages++;
        return;
    }
    int64_t received = now_realtime_us();
    /* A JPEG frame (FCF1, SOI … EOI) or an H.264 access unit (FCH1, 40-byte header, Annex B). */
    int jpeg = v->got >= HEADER_SIZE + 4 && memcmp(v->head, "FCF1", 4) == 0 && le16(v->head + 4) == HEADER_SIZE
        && v->head[HEADER_SIZE] == 0xFF && v->head[HEADER_SIZE + 1] == 0xD8 && v->tail[0] == 0xFF && v->tail[1] == 0xD9;
    int unit = v->got > UNIT_HEADER_SIZE + 4 && memcmp(v->head, "FCH1", 4) == 0 && le16(v->head + 4) == UNIT_HEADER_SIZE
        && v->head[UNIT_HEADER_SIZE] == 0 && v->head[UNIT_HEADER_SIZE + 1] == 0;
    if (!jpeg && !unit) {
        if (memcmp(v->head, "FCA1", 4) == 0) {
            if (phase == MEASURING) v->sound_packets++;
        } else if (memcmp(v->head, "FCP1", 4) != 0) {
            v->bad_frames++; /* padding of a probe is not a frame */
        }
        return;
    }
    unsigned flags = le16(v->head + 6);
    uint64_t seq = le64(v->head + 8);
    int64_t pts = (int64_t)le64(v->head + 16);
    int64_t sent = (int64_t)le64(v->head + 24);
    if (v->frames_total == 0) with_frame++;
    v->frames_total++;
    if (seq > v->last_seq) v->last_seq = seq;

    if (phase == MEASURING) {
        v->frames_measured++;
        v->bytes_measured += (long long)v->got;
        push(v->slow ? &latency_slow : &latency_fast, received - sent);
        if (v->slow && !opt.slow_ack) push(&shown_slow, received - sent);   /* shown as soon as read */
        if (!v->slow) push(&age_raw, received - pts);
    }

    /* Filter switch: the first frame with flag bit 0 after the command was sent (or, if this
     * viewer was not sent the flagged frame, the first one after it). */
    if (v->switch_waiting) {
        int j = v->switch_waiting - 1;
        int seen = 0;
        if (flags & 1) {
            seen = 1;
            if (!switch_flag_seq[j]) switch_flag_seq[j] = seq;
        } else if (switch_flag_seq[j] && seq > switch_flag_seq[j]) {
            seen = 1;
        }
        if (seen && switch_sent_at[j] > 0) {
            int64_t took = received - switch_sent_at[j];
            push(&switch_all, took);
            push(&switch_server, sent - switch_sent_at[j]);   /* of which: until the server wrote it */
            if (v->index == 0) push(&switch_controller, took);
            v->switch_waiting = 0;
        }
    }

    if (v->slow && phase != CONNECTING && opt.slow_ack) {
        /* Reads everything as it comes, shows (and acknowledges) the newest frame at FPS. */
        if (seq > v->showing) {
            v->showing = seq;
            v->showing_sent = sent;
        }
        if (!v->show_at) v->show_at = now_mono_us() + (int64_t)(1e6 / opt.slow_fps);
    } else if (v->slow && phase != CONNECTING) {
        /* Busy showing this frame for 1/FPS s: stop reading, acknowledge when done. */
        v->paused_until = now_mono_us() + (int64_t)(1e6 / opt.slow_fps);
        v->showing = seq;
        lws_rx_flow_control(v->wsi, 0);
    } else {
        if (seq > v->ack_upto) v->ack_upto = seq;
        v->ack_due = 1;
        lws_callback_on_writable(v->wsi);
    }
}

/* Part of a message's payload: keep its start (header, SOI) and its last two bytes (EOI). */
static void accumulate(struct viewer *v, const unsigned char *data, size_t len) {
    if (v->got < sizeof v->head) {
        size_t take = sizeof v->head - v->got;
        if (take > len) take = len;
        memcpy(v->head + v->got, data, take);
    }
    if (len >= 2) {
        v->tail[0] = data[len - 2];
        v->tail[1] = data[len - 1];
    } else if (len == 1) {
        v->tail[0] = v->tail[1];
        v->tail[1] = data[0];
    }
    v->got += len;
}

/* A WebSocket frame from the client: FIN, masked as RFC 6455 requires (payload ≤ 125 bytes). */
static int send_frame(struct viewer *v, int opcode, const unsigned char *payload, size_t len) {
    unsigned char buffer[LWS_PRE + 6 + 125];
    unsigned char *p = buffer + LWS_PRE;
    if (len > 125) return -1;
    uint32_t key = (uint32_t)rand() ^ ((uint32_t)v->index * 2654435761u);
    p[0] = (unsigned char)(0x80 | opcode);
    p[1] = (unsigned char)(0x80 | len);
    memcpy(p + 2, &key, 4);
    for (size_t i = 0; i < len; i++) p[6 + i] = payload[i] ^ p[2 + (i & 3)];
    return lws_write(v->wsi, p, 6 + len, LWS_WRITE_RAW) < (int)(6 + len) ? -1 : 0;
}

/* Closes the last switch: every viewer still waiting for it missed it. */
static void missed_switches(int64_t now) {
    if (switch_count == 0) return;
    int j = switch_count - 1, any = 0;
    for (int i = 0; i < opt.n; i++) {
        if (viewers[i].switch_waiting != j + 1) continue;
        viewers[i].switch_waiting = 0;
        switches_missed++;
        any = 1;
        push(&switch_all, now - switch_sent_at[j]);
        if (i == 0) push(&switch_controller, now - switch_sent_at[j]);
    }
    /* No viewer was sent the flagged frame at all (a newer frame replaced it in the latest-frame
     * slot before the network thread wrote it to anybody). */
    if (any && !switch_flag_seq[j]) switches_unflagged++;
}

static int send_text(struct viewer *v, const char *text) {
    size_t len = strlen(text);
    if (opt.raw) return send_frame(v, 1, (const unsigned char *)text, len);
    unsigned char buffer[LWS_PRE + 256];
    memcpy(buffer + LWS_PRE, text, len);
    return lws_write(v->wsi, buffer + LWS_PRE, len, LWS_WRITE_TEXT) < (int)len ? -1 : 0;
}

static void established_now(struct viewer *v) {
    v->established = 1;
    established++;
    if (opt.window >= 0) v->flow_due = 1;
    if (opt.watch) v->watch_due = 1;
    if (v->flow_due || v->watch_due) lws_callback_on_writable(v->wsi);
}

/* --client raw: parses WebSocket frames from `len` bytes; returns how many it consumed (it
 * stops early when a slow reader becomes busy); -1 on a protocol error. */
static long raw_parse(struct viewer *v, const unsigned char *p, size_t len) {
    size_t used = 0;
    while (used < len && !v->paused_until) {
        if (!v->in_payload) {
            /* Frame header: 2 bytes, then the extended length and the mask key if any. */
            v->fh[v->fh_got++] = p[used++];
            if (v->fh_got < 2) continue;
            unsigned n = v->fh[1] & 0x7f;
            size_t need = 2 + (n == 126 ? 2 : n == 127 ? 8 : 0) + ((v->fh[1] & 0x80) ? 4 : 0);
            if (v->fh_got < need) continue;
            if (v->fh[1] & 0x80) return -1;   /* a server must not mask */
            uint64_t plen = n;
            if (n == 126) plen = ((uint64_t)v->fh[2] << 8) | v->fh[3];
            if (n == 127) {
                plen = 0;
                for (int i = 2; i < 10; i++) plen = (plen << 8) | v->fh[i];
            }
            v->fh_got = 0;
            v->frame_fin = (v->fh[0] & 0x80) != 0;
            v->frame_op = v->fh[0] & 0x0f;
            if (v->frame_op >= 8) {
                if (plen > 125) return -1;
                v->control_got = 0;
            } else if (v->frame_op != 0) {
                v->message_op = v->frame_op;   /* a new message (0 continues one) */
                v->got = 0;
            }
            v->payload_left = plen;
            v->in_payload = 1;
        } else {
            size_t take = len - used;
            if (take > v->payload_left) take = (size_t)v->payload_left;
            if (v->frame_op >= 8) {
                memcpy(v->control + v->control_got, p + used, take);
                v->control_got += take;
            } else if (v->message_op == 2) {
                accumulate(v, p + used, take);
            } else {
                v->got += take;
            }
            used += take;
            v->payload_left -= take;
        }
        if (v->in_payload && v->payload_left == 0) {
            v->in_payload = 0;
            if (v->frame_op == 9) {   /* ping → pong */
                memcpy(v->pong, v->control, v->control_got);
                v->pong_len = v->control_got;
                v->pong_due = 1;
                lws_callback_on_writable(v->wsi);
            } else if (v->frame_op < 8 && v->frame_fin) {
                message_done(v, v->message_op == 2);
                v->got = 0;
            }
        }
    }
    return (long)used;
}

/* Parses what a raw viewer has pending, then `data`; keeps what is left while it is busy. */
static int raw_feed(struct viewer *v, const unsigned char *data, size_t len) {
    if (v->pending_off < v->pending_len) {
        long used = raw_parse(v, v->pending + v->pending_off, v->pending_len - v->pending_off);
        if (used < 0) return -1;
        v->pending_off += (size_t)used;
    }
    if (v->pending_off == v->pending_len) v->pending_off = v->pending_len = 0;
    if (len == 0) return 0;
    size_t used = 0;
    if (v->pending_len == 0) {
        long n = raw_parse(v, data, len);
        if (n < 0) return -1;
        used = (size_t)n;
    }
    if (used < len) {
        size_t rest = len - used;
        if (v->pending_len + rest > v->pending_cap) {
            size_t cap = v->pending_len + rest;
            if (cap > ((size_t)64 << 20)) return -1;   /* bounded */
            unsigned char *grown = realloc(v->pending, cap);
            if (!grown) return -1;
            v->pending = grown;
            v->pending_cap = cap;
        }
        memcpy(v->pending + v->pending_len, data + used, rest);
        v->pending_len += rest;
    }
    return 0;
}

/* --client raw: the HTTP upgrade response; returns the bytes it used, or -1 when refused. */
static long raw_handshake(struct viewer *v, const unsigned char *data, size_t len) {
    size_t used = 0;
    while (used < len && v->response_got < sizeof v->response - 1) {
        v->response[v->response_got++] = (char)data[used++];
        v->response[v->response_got] = 0;
        if (v->response_got >= 4 && memcmp(v->response + v->response_got - 4, "\r\n\r\n", 4) == 0) {
            if (strncmp(v->response, "HTTP/1.1 101", 12) != 0 || !strcasestr(v->response, "\nUpgrade: websocket")
                || !strcasestr(v->response, "\nSec-WebSocket-Protocol: filtercast.v1")) {
                char *eol = strchr(v->response, '\r');
                if (eol) *eol = 0;
                fprintf(stderr, "fanout: viewer %d: upgrade refused: %s\n", v->index, v->response);
                return -1;
            }
            established_now(v);
            return (long)used;
        }
    }
    if (v->response_got >= sizeof v->response - 1) return -1;
    return (long)used;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct viewer *v = (struct viewer *)lws_get_opaque_user_data(wsi);
    (void)user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (v) {
            if (!v->failed) failed++;
            v->failed = 1;
            v->wsi = NULL;
            if (phase == CONNECTING)
                fprintf(stderr, "fanout: viewer %d: connection failed: %s\n", v->index,
                        in ? (const char *)in : "?");
        }
        return 0;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        if (v) established_now(v);
        return 0;
    case LWS_CALLBACK_RAW_CONNECTED:
        if (v) {
            v->handshake_due = 1;
            lws_callback_on_writable(wsi);
        }
        return 0;
    case LWS_CALLBACK_RAW_RX: {
        if (!v) return 0;
        const unsigned char *data = in;
        if (!v->established) {
            long used = raw_handshake(v, data, len);
            if (used < 0) {
                if (!v->failed) failed++;
                v->failed = 1;
                return -1;
            }
            data += used;
            len -= (size_t)used;
            if (!v->established) return 0;
        }
        return raw_feed(v, data, len) < 0 ? -1 : 0;
    }
    case LWS_CALLBACK_CLIENT_RECEIVE: {
        if (!v) return 0;
        accumulate(v, in, len);
        if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
            message_done(v, lws_frame_is_binary(wsi));
            v->got = 0;
        }
        return 0;
    }
    case LWS_CALLBACK_CLIENT_WRITEABLE:
    case LWS_CALLBACK_RAW_WRITEABLE:
        if (!v) return 0;
        if (v->handshake_due) {
            char request[LWS_PRE + 512];
            unsigned char nonce[16];
            char key[32];
            for (int i = 0; i < 16; i++) nonce[i] = (unsigned char)rand();
            lws_b64_encode_string((const char *)nonce, 16, key, sizeof key);
            v->handshake_due = 0;
            int n = snprintf(request + LWS_PRE, sizeof request - LWS_PRE,
                             "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n"
                             "Sec-WebSocket-Protocol: filtercast.v1\r\n\r\n", opt.path, opt.host, opt.port, key);
            if (lws_write(wsi, (unsigned char *)request + LWS_PRE, (size_t)n, LWS_WRITE_RAW) < n) return -1;
            return 0;
        }
        if (v->pong_due) {
            v->pong_due = 0;
            if (send_frame(v, 10, v->pong, v->pong_len)) return -1;
        } else if (v->watch_due) {
            char text[160];
            v->watch_due = 0;
            snprintf(text, sizeof text, "{\"type\":\"watch\",\"transport\":\"%s\",\"rendition\":\"%s\",\"audio\":%s}",
                     strncmp(opt.watch, "h264", 4) == 0 ? "h264" : "jpeg", opt.watch, opt.audio ? "true" : "false");
            if (send_text(v, text)) return -1;
        } else if (v->flow_due) {
            char text[64];
            v->flow_due = 0;
            snprintf(text, sizeof text, "{\"type\":\"flow\",\"window\":%d}", opt.window);
            if (send_text(v, text)) return -1;
        } else if (v->index == 0 && switch_pending_send) {
            char text[96];
            int j = switch_count;
            switch_pending_send = 0;
            snprintf(text, sizeof text, "{\"type\":\"setFilter\",\"name\":\"%s\"}", (j % 2 == 0) ? "none" : "sepia");
            /* A viewer that has not seen the previous switch by now missed it: it counts with
             * the time so far (a lower bound, > the switch interval) so percentiles stay honest. */
            missed_switches(now_realtime_us());
            for (int i = 0; i < opt.n; i++)
                viewers[i].switch_waiting = (viewers[i].established && !viewers[i].closed) ? j + 1 : 0;
            switch_flag_seq[j] = 0;
            switch_sent_at[j] = 0;
            if (send_text(v, text)) return -1;
            switch_sent_at[j] = now_realtime_us();
            switch_count++;
        } else if (v->ack_due && v->ack_upto > v->acked) {
            char text[64];
            v->ack_due = 0;
            v->acked = v->ack_upto;
            snprintf(text, sizeof text, "{\"type\":\"frameAck\",\"seq\":%llu}", (unsigned long long)v->ack_upto);
            if (send_text(v, text)) return -1;
        }
        if (v->pong_due || v->watch_due || v->flow_due || (v->ack_due && v->ack_upto > v->acked) || (v->index == 0 && switch_pending_send))
            lws_callback_on_writable(wsi);
        return 0;
    case LWS_CALLBACK_CLIENT_CLOSED:
    case LWS_CALLBACK_RAW_CLOSE:
        if (v && !v->established) {
            if (!v->failed) failed++;
            v->failed = 1;
            v->wsi = NULL;
        } else if (v && !v->closed) {
            v->closed = 1;
            v->wsi = NULL;
            if (phase != DONE) {
                closed_early++;
                fprintf(stderr, "fanout: viewer %d: closed by the server\n", v->index);
            }
        }
        return 0;
    default:
        return 0;
    }
}

static const struct lws_protocols protocols[] = {
    { "filtercast.v1", callback, 0, 64 * 1024, 0, NULL, 0 },
    { NULL, NULL, 0, 0, 0, NULL, 0 },
};

/* Every 2 ms: connect more viewers, resume slow readers, send filter switches, move phases. */
static void tick(lws_sorted_usec_list_t *sul) {
    int64_t mono = now_mono_us();
    (void)sul;

    if (phase == CONNECTING) {
        /* At most 16 handshakes in flight. */
        while (next_to_connect < opt.n && next_to_connect - established - failed < 16) {
            connect_viewer(&viewers[next_to_connect]);
            next_to_connect++;
        }
        int all_in = established + failed >= opt.n && with_frame >= established;
        if (all_in || mono - connect_started > 30000000) {
            if (!all_in)
                fprintf(stderr, "fanout: after 30 s: %d of %d connected, %d with a frame\n", established, opt.n,
                        with_frame);
            phase = WARMUP;
            phase_started = mono;
        }
    } else if (phase == WARMUP && mono - phase_started >= (int64_t)(opt.warmup * 1e6)) {
        phase = MEASURING;
        phase_started = mono;
        measure_start = mono;
        next_switch_at = mono;
        sample_server(0);
    } else if (phase == MEASURING) {
        if (mono - measure_start >= (int64_t)(opt.duration * 1e6)) {
            measure_end = mono;
            sample_server(1);
            phase = DONE;
        } else if (opt.filter_switch && mono >= next_switch_at && switch_count < MAX_SWITCHES - 1
                   && viewers[0].wsi && !viewers[0].closed) {
            switch_pending_send = 1;
            lws_callback_on_writable(viewers[0].wsi);
            next_switch_at += (int64_t)opt.switch_ms * 1000;
        }
    }

    /* Slow readers whose "showing" time is over: acknowledge and read on. */
    for (int i = 0; i < opt.n; i++) {
        struct viewer *v = &viewers[i];
        if (v->slow && v->show_at && mono >= v->show_at && v->wsi && !v->closed) {
            v->show_at = 0;
            if (phase == MEASURING) push(&shown_slow, now_realtime_us() - v->showing_sent);
            if (v->showing > v->ack_upto) v->ack_upto = v->showing;
            v->ack_due = 1;
            lws_callback_on_writable(v->wsi);
        }
        if (v->slow && v->paused_until && mono >= v->paused_until && v->wsi && !v->closed) {
            v->paused_until = 0;
            if (v->showing > v->ack_upto) v->ack_upto = v->showing;   /* shown: acknowledge it */
            v->ack_due = 1;
            lws_callback_on_writable(v->wsi);
            if (opt.raw && raw_feed(v, NULL, 0) < 0) continue;
            if (!v->paused_until) lws_rx_flow_control(v->wsi, 1);
        }
    }

    if (phase != DONE && !interrupted) lws_sul_schedule(context, 0, &tick_sul, tick, 2000);
}

static void on_signal(int sig) {
    (void)sig;
    interrupted = 1;
    if (context) lws_cancel_service(context);
}

static void usage(void) {
    fprintf(stderr,
            "usage: fanout [--host H] [--port P] [--viewers N] [--duration S] [--warmup S]\n"
            "              [--slow FPS [--slow-count K | --slow-fraction F] [--slow-mode sleep|ack]]\n"
            "              [--filter-switch [--switch-ms MS]]\n"
            "              [--window W] [--watch RENDITION [--audio]] [--pid SERVER_PID] [--client raw|lws]\n"
            "              [--path /ws?channel=NAME]\n");
    exit(2);
}

/* ---- report ------------------------------------------------------------------------------- */

static void print_stats(const char *key, struct samples *s, double scale) {
    qsort(s->v, s->n, sizeof *s->v, cmp_i64);
    if (s->n == 0) {
        printf("\"%s\":null", key);
        return;
    }
    double sum = 0;
    for (size_t i = 0; i < s->n; i++) sum += (double)s->v[i];
    printf("\"%s\":{\"n\":%zu,\"mean\":%.2f,\"p50\":%.2f,\"p95\":%.2f,\"p99\":%.2f,\"max\":%.2f}", key, s->n,
           sum / (double)s->n / scale, (double)percentile(s, 50) / scale, (double)percentile(s, 95) / scale,
           (double)percentile(s, 99) / scale, (double)s->v[s->n - 1] / scale);
}

static void print_fps(const char *key, int slow, double seconds) {
    double *fps = malloc(sizeof(double) * (size_t)(opt.n ? opt.n : 1));
    int k = 0;
    int below29 = 0;
    for (int i = 0; i < opt.n; i++) {
        if (viewers[i].slow != slow || !viewers[i].established) continue;
        fps[k] = (double)viewers[i].frames_measured / seconds;
        if (fps[k] < 29.0) below29++;
        k++;
    }
    if (k == 0) {
        printf("\"%s\":null", key);
        free(fps);
        return;
    }
    qsort(fps, (size_t)k, sizeof *fps, cmp_double);
    double sum = 0;
    for (int i = 0; i < k; i++) sum += fps[i];
    printf("\"%s\":{\"viewers\":%d,\"min\":%.2f,\"median\":%.2f,\"max\":%.2f,\"mean\":%.2f,\"below29\":%d}", key, k,
           fps[0], k % 2 ? fps[k / 2] : (fps[k / 2 - 1] + fps[k / 2]) / 2, fps[k - 1], sum / k, below29);
    free(fps);
}

static void report(void) {
    double seconds = (double)(measure_end - measure_start) / 1e6;
    long frames = 0, bad = 0, text = 0, sound = 0;
    long long bytes = 0;
    for (int i = 0; i < opt.n; i++) {
        bytes += viewers[i].bytes_measured;
        frames += viewers[i].frames_measured;
        bad += viewers[i].bad_frames;
        text += viewers[i].text_messages;
        sound += viewers[i].sound_packets;
    }
    printf("{\"client\":\"%s\",\"viewers\":%d,\"connected\":%d,\"failed\":%d,\"closed_early\":%d,\"seconds\":%.3f,", opt.raw ? "raw" : "lws",
           opt.n, established, failed, closed_early, seconds);
    printf("\"frames\":%ld,\"bad_frames\":%ld,\"text_messages\":%ld,\"sound_packets\":%ld,\"frame_kb\":%.1f,\"mbit_s\":%.1f,",
           frames, bad, text, sound, frames ? (double)bytes / (double)frames / 1024 : 0, seconds > 0 ? (double)bytes * 8 / seconds / 1e6 : 0);
    print_fps("fps", 0, seconds);
    printf(",");
    print_stats("latency_ms", &latency_fast, 1000.0);
    printf(",");
    /* Frame age: receive time − pts, less its minimum over the run — the extra delay frames
     * met anywhere (pipeline, the server's pass over all viewers, the network), which the
     * send-time latency does not see. */
    if (age_raw.n) {
        qsort(age_raw.v, age_raw.n, sizeof *age_raw.v, cmp_i64);
        int64_t base = age_raw.v[0];
        for (size_t i = 0; i < age_raw.n; i++) age_raw.v[i] -= base;
    }
    print_stats("age_excess_ms", &age_raw, 1000.0);
    if (opt.slow_count > 0) {
        printf(",\"slow_fps_target\":%.2f,\"slow_mode\":\"%s\",", opt.slow_fps, opt.slow_ack ? "ack" : "sleep");
        print_fps("slow_fps", 1, seconds);
        printf(",");
        print_stats("slow_latency_ms", &latency_slow, 1000.0);
        printf(",");
        /* How old each frame the slow reader showed was when it showed it (send time → shown). */
        print_stats("slow_shown_age_ms", &shown_slow, 1000.0);
    }
    if (opt.filter_switch) {
        printf(",\"switches\":%d,\"switch_missed\":%d,\"switch_flag_never_sent\":%d,", switch_count, switches_missed,
               switches_unflagged);
        print_stats("switch_ms", &switch_all, 1000.0);
        printf(",");
        print_stats("switch_controller_ms", &switch_controller, 1000.0);
        printf(",");
        print_stats("switch_until_written_ms", &switch_server, 1000.0);
    }
    double self_cpu = ((double)(self_after.ru_utime.tv_sec - self_before.ru_utime.tv_sec)
                       + (double)(self_after.ru_stime.tv_sec - self_before.ru_stime.tv_sec)
                       + (double)(self_after.ru_utime.tv_usec - self_before.ru_utime.tv_usec) / 1e6
                       + (double)(self_after.ru_stime.tv_usec - self_before.ru_stime.tv_usec) / 1e6);
    printf(",\"client_cpu_pct\":%.1f", seconds > 0 ? self_cpu / seconds * 100 : 0);
    /* Runnable but not running: how much the CPU was contended (a 2-core machine, shared). */
    printf(",\"client_runq_wait_pct\":%.1f",
           seconds > 0 ? (double)(self_wait_after - self_wait_before) / 1e9 / seconds * 100 : 0);
    /* The whole machine, in % of one core (so 200 = both cores of a 2-core machine busy). */
    if (system_after[2] > system_before[2]) {
        double total = (double)(system_after[2] - system_before[2]);
        double cores = (double)sysconf(_SC_NPROCESSORS_ONLN);
        printf(",\"machine\":{\"cores\":%.0f,\"busy_pct\":%.1f,\"softirq_pct\":%.1f}", cores,
               (double)(system_after[0] - system_before[0]) / total * cores * 100,
               (double)(system_after[1] - system_before[1]) / total * cores * 100);
    }
    if (opt.pid > 0 && proc_ticks_before >= 0 && proc_ticks_after >= 0) {
        double hz = (double)sysconf(_SC_CLK_TCK);
        printf(",\"server\":{\"cpu_pct\":%.1f,\"rss_start_mb\":%.1f,\"rss_end_mb\":%.1f,\"hwm_mb\":%.1f,\"threads\":{",
               (double)(proc_ticks_after - proc_ticks_before) / hz / seconds * 100, rss_before_kb / 1024.0,
               rss_after_kb / 1024.0, hwm_kb / 1024.0);
        /* Per thread name (several threads may share a name: summed). */
        char names[MAX_THREADS][32];
        double pct[MAX_THREADS], wait[MAX_THREADS];
        int k = 0;
        for (int a = 0; a < nthreads_after; a++) {
            long long before = 0, wait_before = 0;
            for (int b = 0; b < nthreads_before; b++)
                if (threads_before[b].tid == threads_after[a].tid) {
                    before = threads_before[b].ticks;
                    wait_before = threads_before[b].wait_ns;
                }
            double p = (double)(threads_after[a].ticks - before) / hz / seconds * 100;
            int found = -1;
            for (int i = 0; i < k; i++)
                if (strcmp(names[i], threads_after[a].name) == 0) found = i;
            if (found < 0) {
                found = k++;
                snprintf(names[found], sizeof names[found], "%s", threads_after[a].name);
                pct[found] = 0;
                wait[found] = 0;
            }
            pct[found] += p;
            wait[found] += (double)(threads_after[a].wait_ns - wait_before) / 1e9 / seconds * 100;
        }
        for (int i = 0; i < k; i++) {
            /* Thread names are short printable strings; escape quotes and backslashes anyway. */
            printf("%s\"", i ? "," : "");
            for (const char *c = names[i]; *c; c++) {
                if (*c == '"' || *c == '\\') putchar('\\');
                putchar((unsigned char)*c >= 0x20 ? *c : '?');
            }
            printf("\":%.1f", pct[i]);
        }
        printf("},\"runq_wait_pct\":{");
        for (int i = 0; i < k; i++) printf("%s\"%s\":%.1f", i ? "," : "", names[i], wait[i]);
        printf("}}");
    }
    printf("}\n");
    fflush(stdout);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDS_VALUE() do { if (!value) usage(); i++; } while (0)
        if (!strcmp(a, "--host")) { NEEDS_VALUE(); opt.host = value; }
        else if (!strcmp(a, "--port")) { NEEDS_VALUE(); opt.port = atoi(value); }
        else if (!strcmp(a, "--viewers") || !strcmp(a, "-n")) { NEEDS_VALUE(); opt.n = atoi(value); }
        else if (!strcmp(a, "--duration")) { NEEDS_VALUE(); opt.duration = atof(value); }
        else if (!strcmp(a, "--warmup")) { NEEDS_VALUE(); opt.warmup = atof(value); }
        else if (!strcmp(a, "--slow")) { NEEDS_VALUE(); opt.slow_fps = atof(value); }
        else if (!strcmp(a, "--slow-count")) { NEEDS_VALUE(); opt.slow_count = atoi(value); }
        else if (!strcmp(a, "--slow-fraction")) { NEEDS_VALUE(); opt.slow_fraction = atof(value); }
        else if (!strcmp(a, "--slow-mode")) {
            NEEDS_VALUE();
            if (!strcmp(value, "sleep")) opt.slow_ack = 0;
            else if (!strcmp(value, "ack")) opt.slow_ack = 1;
            else usage();
        }
        else if (!strcmp(a, "--filter-switch")) opt.filter_switch = 1;
        else if (!strcmp(a, "--switch-ms")) { NEEDS_VALUE(); opt.switch_ms = atoi(value); }
        else if (!strcmp(a, "--window")) { NEEDS_VALUE(); opt.window = atoi(value); }
        else if (!strcmp(a, "--watch")) { NEEDS_VALUE(); opt.watch = value; }
        else if (!strcmp(a, "--audio")) opt.audio = 1;
        else if (!strcmp(a, "--pid")) { NEEDS_VALUE(); opt.pid = atoi(value); }
        else if (!strcmp(a, "--path")) { NEEDS_VALUE(); opt.path = value; }
        else if (!strcmp(a, "--client")) {
            NEEDS_VALUE();
            if (!strcmp(value, "raw")) opt.raw = 1;
            else if (!strcmp(value, "lws")) opt.raw = 0;
            else usage();
        }
        else usage();
    }
    if (opt.n < 1 || opt.n > 20000 || opt.port < 1 || opt.port > 65535 || opt.duration <= 0 || opt.duration > 3600
        || opt.warmup < 0 || opt.switch_ms < 10 || opt.window > 16 || (opt.audio && !opt.watch)
        || opt.path[0] != '/' || strlen(opt.path) > 200 || strpbrk(opt.path, " \r\n"))
        usage();  /* the sound is asked for in the watch */
    /* Bounded, and loopback only unless told otherwise: this is a benchmark, not a flood tool. */
    if (opt.slow_fps > 0) {
        if (opt.slow_count < 0)
            opt.slow_count = opt.slow_fraction >= 0 ? (int)(opt.slow_fraction * opt.n + 0.5) : 1;
        if (opt.slow_count > opt.n) opt.slow_count = opt.n;
    } else {
        opt.slow_count = 0;
    }

    viewers = calloc((size_t)opt.n, sizeof *viewers);
    if (!viewers) return 1;
    /* Slow viewers are the last ones (viewer 0 sends the filter switches). */
    for (int i = 0; i < opt.n; i++) {
        viewers[i].index = i;
        viewers[i].slow = i >= opt.n - opt.slow_count;
    }

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    lws_set_log_level(LLL_ERR, NULL);

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.count_threads = 1;
    info.fd_limit_per_thread = (unsigned)opt.n + 64;
    info.pt_serv_buf_size = 256 * 1024;   /* read big chunks: fewer syscalls and callbacks */
    info.timeout_secs = 30;
    context = lws_create_context(&info);
    if (!context) {
        fprintf(stderr, "fanout: cannot create the lws context\n");
        return 1;
    }

    connect_started = now_mono_us();
    lws_sul_schedule(context, 0, &tick_sul, tick, 1);

    while (phase != DONE && !interrupted) {
        if (lws_service(context, 0) < 0) break;
        if (phase == CONNECTING && established + failed >= opt.n && established == 0) {
            fprintf(stderr, "fanout: no viewer could connect to ws://%s:%d%s\n", opt.host, opt.port, opt.path);
            lws_context_destroy(context);
            return 1;
        }
    }
    if (phase != DONE) {
        /* Interrupted: report what was measured so far. */
        if (phase == MEASURING) {
            measure_end = now_mono_us();
            sample_server(1);
        } else {
            fprintf(stderr, "fanout: interrupted before measuring\n");
            lws_context_destroy(context);
            return 1;
        }
    }
    phase = DONE;
    lws_sul_cancel(&tick_sul);
    if (opt.filter_switch && switch_count > 0 && switch_sent_at[switch_count - 1] > 0
        && now_realtime_us() - switch_sent_at[switch_count - 1] > 400000)
        missed_switches(now_realtime_us());   /* the last switch had long enough */
    report();
    lws_context_destroy(context);
    return 0;
}
