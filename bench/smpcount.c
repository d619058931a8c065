/*
 * smpcount.so — an LD_PRELOAD shim that counts the MADs a process hands to libibumad's umad_send().
 *
 * Preload it in front of the umad2sim shim:  LD_PRELOAD=/path/smpcount.so:/path/libumad2sim.so
 * umad_send() resolves to this file first; it looks at the MAD, bumps counters and calls the real
 * umad_send() (libibumad's, found with dlsym(RTLD_NEXT)). Nothing is changed on the way.
 *
 * At process exit the counts are written to the file named by $SMPCOUNT_OUT (appended, one
 * "key value" per line) — or to stderr when it is not set:
 *   smp_total N        every SMP sent (management class 0x01 LID-routed or 0x81 directed-route)
 *   smp_get N / smp_set N / smp_other N       by method
 *   mad_other N        MADs of other classes (SA, PerfMgt, ...) — not SMPs
 *   pma_total N        of those, PerfMgt (class 0x04) MADs: a PerfMgr's Gets and Sets
 *   attr_<get|set>_0xAAAA N                  SMPs by method and attribute id
 *   send_fail N        umad_send() calls that returned an error (still counted above: they were sent)
 *
 * With $SMPCOUNT_TRACE set, every SMP is also kept as (CLOCK_REALTIME ns, method, attribute id) and the
 * list is written to that file at exit, one "ns method attr" line each (decimal, method and attr in hex):
 * bench/repair.sh uses it to find which SMPs an SM sent after a fault and when its last LFT write left.
 * PerfMgt MADs go to $SMPCOUNT_PMA_TRACE instead, in the same format (bench/perfmgr.sh: when the passes ran).
 * With $SMPCOUNT_RECORD set, every SMP is appended to that file as sent, one 264-byte record each: the
 * destination LID of the user-MAD address (2 bytes, network order; 0xffff for directed route), 6 zero
 * bytes, then the 256-byte MAD. tests/integration/tools/smp_replay.cpp sends such a file again
 * (bench/replay_one.sh: ibsim's own rate for exactly the SMPs an SM sent).
 * With $SMPCOUNT_PMA_LIVE set, the first PerfMgt MAD after 500 ms without one appends "start <ns>" to that
 * file at once: a counter pass has begun (bench/perfmgr_one.sh times its cable failure by it).
 *
 * Written for the smd benchmark (bench/run.sh); gcc -shared -fPIC -O2 -o smpcount.so smpcount.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

/* libibumad's user-MAD header (struct ib_user_mad) is 64 bytes; the MAD follows it. We ask libibumad
 * for the exact offset through umad_get_mad() when it is there, and fall back to 64. */
#define UMAD_HDR_FALLBACK 64

typedef int (*umad_send_fn)(int fd, int agentid, void *umad, int length, int timeout_ms, int retries);
typedef void *(*umad_get_mad_fn)(void *umad);

static umad_send_fn real_send;
static umad_get_mad_fn get_mad;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static unsigned long n_smp, n_get, n_set, n_smp_other, n_mad_other, n_pma, n_fail;
/* per attribute id (16 bit) and method: 0 = Get, 1 = Set */
static unsigned long by_attr[2][65536];

struct trace_event {
  int64_t ns;
  uint16_t attr;
  uint8_t method;
  uint8_t mgmt_class;
};
static struct trace_event *trace;
static size_t trace_len, trace_cap;
static int trace_on = -1; /* -1 unknown, 0 off, 1 on */
static int64_t last_pma_ns;
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *record_path; /* $SMPCOUNT_RECORD, NULL when unset or empty */
static FILE *record_file;
static int record_failed;

/* One SMP as sent, for $SMPCOUNT_RECORD (see the top of this file); stdio buffers, exit flushes. */
static void record_smp(const uint8_t *umad, const uint8_t *mad) {
  if (!record_path) return;
  pthread_mutex_lock(&trace_lock);
  if (!record_file && !record_failed) {
    record_file = fopen(record_path, "w");
    if (!record_file) {
      record_failed = 1;
      fprintf(stderr, "smpcount: cannot write %s\n", record_path);
    }
  }
  if (record_file) {
    uint8_t head[8] = {umad[28], umad[29], 0, 0, 0, 0, 0, 0}; /* struct ib_user_mad: addr.lid at byte 28 */
    fwrite(head, 1, sizeof head, record_file);
    fwrite(mad, 1, 256, record_file);
  }
  pthread_mutex_unlock(&trace_lock);
}

static void trace_mad(uint8_t mgmt_class, uint8_t method, uint16_t attr) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  pthread_mutex_lock(&trace_lock);
  if (trace_len == trace_cap) {
    size_t cap = trace_cap ? trace_cap * 2 : 65536;
    struct trace_event *grown = realloc(trace, cap * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&trace_lock);
      return;
    }
    trace = grown;
    trace_cap = cap;
  }
  trace[trace_len].ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  trace[trace_len].attr = attr;
  trace[trace_len].method = method;
  trace[trace_len].mgmt_class = mgmt_class;
  ++trace_len;
  pthread_mutex_unlock(&trace_lock);
}

/* The first PerfMgt MAD after a quiet half second: append "start <ns>" to $SMPCOUNT_PMA_LIVE now. */
static void pass_start_mark(void) {
  const char *live = getenv("SMPCOUNT_PMA_LIVE");
  if (!live) return;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  const int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  pthread_mutex_lock(&trace_lock);
  const int fresh = now - last_pma_ns > 500000000;
  last_pma_ns = now;
  pthread_mutex_unlock(&trace_lock);
  if (!fresh) return;
  FILE *f = fopen(live, "a");
  if (!f) return;
  fprintf(f, "start %lld\n", (long long)now);
  fclose(f);
}

static void resolve(void) {
  trace_on = getenv("SMPCOUNT_TRACE") != NULL || getenv("SMPCOUNT_PMA_TRACE") != NULL;
  record_path = getenv("SMPCOUNT_RECORD");
  if (record_path && !*record_path) record_path = NULL;
  real_send = (umad_send_fn)dlsym(RTLD_NEXT, "umad_send");
  get_mad = (umad_get_mad_fn)dlsym(RTLD_NEXT, "umad_get_mad");
  if (!get_mad) get_mad = (umad_get_mad_fn)dlsym(RTLD_DEFAULT, "umad_get_mad");
}

int umad_send(int fd, int agentid, void *umad, int length, int timeout_ms, int retries) {
  pthread_once(&once, resolve);
  if (!real_send) {
    fprintf(stderr, "smpcount: real umad_send not found\n");
    abort();
  }
  const uint8_t *mad = get_mad ? (const uint8_t *)get_mad(umad) : (const uint8_t *)umad + UMAD_HDR_FALLBACK;
  const uint8_t mgmt_class = mad[1];
  const uint8_t method = mad[3];
  const uint16_t attr = (uint16_t)((mad[16] << 8) | mad[17]);
  if (mgmt_class == 0x01 || mgmt_class == 0x81) {
    __atomic_fetch_add(&n_smp, 1, __ATOMIC_RELAXED);
    if (trace_on == 1) trace_mad(mgmt_class, method, attr);
    record_smp((const uint8_t *)umad, mad);
    if (method == 0x01) {
      __atomic_fetch_add(&n_get, 1, __ATOMIC_RELAXED);
      __atomic_fetch_add(&by_attr[0][attr], 1, __ATOMIC_RELAXED);
    } else if (method == 0x02) {
      __atomic_fetch_add(&n_set, 1, __ATOMIC_RELAXED);
      __atomic_fetch_add(&by_attr[1][attr], 1, __ATOMIC_RELAXED);
    } else {
      __atomic_fetch_add(&n_smp_other, 1, __ATOMIC_RELAXED);
    }
  } else {
    __atomic_fetch_add(&n_mad_other, 1, __ATOMIC_RELAXED);
    if (mgmt_class == 0x04) {
      __atomic_fetch_add(&n_pma, 1, __ATOMIC_RELAXED);
      if (trace_on == 1) trace_mad(mgmt_class, method, attr);
      pass_start_mark();
    }
  }
  int rc = real_send(fd, agentid, umad, length, timeout_ms, retries);
  if (rc < 0) __atomic_fetch_add(&n_fail, 1, __ATOMIC_RELAXED);
  return rc;
}

__attribute__((destructor)) static void report(void) {
  if (record_file) fclose(record_file);
  /* Child processes that never sent anything (e.g. helpers) stay silent. */
  if (n_smp == 0 && n_mad_other == 0) return;
  const char *path = getenv("SMPCOUNT_OUT");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f) f = stderr;
  fprintf(f, "smp_total %lu\nsmp_get %lu\nsmp_set %lu\nsmp_other %lu\nmad_other %lu\npma_total %lu\nsend_fail %lu\n",
          n_smp, n_get, n_set, n_smp_other, n_mad_other, n_pma, n_fail);
  for (int m = 0; m < 2; ++m)
    for (int a = 0; a < 65536; ++a)
      if (by_attr[m][a]) fprintf(f, "attr_%s_0x%04x %lu\n", m ? "set" : "get", a, by_attr[m][a]);
  if (f != stderr) fclose(f);
  const char *paths[2] = {getenv("SMPCOUNT_TRACE"), getenv("SMPCOUNT_PMA_TRACE")};
  for (int which = 0; which < 2; ++which) {
    FILE *t = paths[which] && trace_len ? fopen(paths[which], "w") : NULL;
    if (!t) continue;
    for (size_t i = 0; i < trace_len; ++i) {
      if ((trace[i].mgmt_class == 0x04) != (which == 1)) continue;
      fprintf(t, "%lld %02x %04x\n", (long long)trace[i].ns, trace[i].method, trace[i].attr);
    }
    fclose(t);
  }
}
