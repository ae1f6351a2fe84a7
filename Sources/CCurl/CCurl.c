#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#endif

// The parts of libcurl's stable ABI the shim uses (curl/curl.h, curl/multi.h).
typedef struct {
  int msg;
  void *easy_handle;
  union {
    void *whatever;
    int result;
  } data;
} news_curl_message;

enum { news_curl_global_default = 3, news_curl_message_done = 1 };

// curl/multi.h: the multi handle's options and socket_action's arguments.
enum {
  news_curlmopt_socketfunction = 20001,
  news_curlmopt_socketdata = 10002,
  news_curlmopt_timerfunction = 20004,
  news_curlmopt_timerdata = 10005,
  news_curl_poll_in = 1,
  news_curl_poll_out = 2,
  news_curl_poll_remove = 4,
  news_curl_socket_timeout = -1,
  news_curl_cselect_in = 1,
  news_curl_cselect_out = 2,
  news_curl_cselect_err = 4,
};

static struct {
  int (*global_init)(long);
  void *(*easy_init)(void);
  void (*easy_cleanup)(void *);
  // Optional: without it a handle is never used twice (news_curl_easy_give).
  void (*easy_reset)(void *);
  int (*easy_setopt)(void *, int, ...);
  int (*easy_getinfo)(void *, int, ...);
  const char *(*easy_strerror)(int);
  void *(*slist_append)(void *, const char *);
  void (*slist_free_all)(void *);
  void *(*multi_init)(void);
  int (*multi_add_handle)(void *, void *);
  int (*multi_remove_handle)(void *, void *);
  int (*multi_perform)(void *, int *);
  int (*multi_poll)(void *, void *, unsigned, int, int *);
  int (*multi_wakeup)(void *);
  news_curl_message *(*multi_info_read)(void *, int *);
  // Optional: without them the loop polls every transfer (news_curl_loop_new).
  int (*multi_setopt)(void *, int, ...);
  int (*multi_socket_action)(void *, int, int, int *);
} api;

static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *find(void *library, const char *name, int *missing) {
  void *symbol = dlsym(library, name);
  if (symbol == NULL) *missing = 1;
  return symbol;
}

static void load(void) {
#if defined(__APPLE__)
  const char *names[] = {"libcurl.4.dylib", "libcurl.dylib", NULL};
#else
  const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4", NULL};
#endif
  void *library = NULL;
  for (int i = 0; names[i] != NULL && library == NULL; i++) {
    library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (library == NULL) return;
  int missing = 0;
  api.global_init = find(library, "curl_global_init", &missing);
  api.easy_init = find(library, "curl_easy_init", &missing);
  api.easy_cleanup = find(library, "curl_easy_cleanup", &missing);
  api.easy_setopt = find(library, "curl_easy_setopt", &missing);
  api.easy_getinfo = find(library, "curl_easy_getinfo", &missing);
  api.easy_strerror = find(library, "curl_easy_strerror", &missing);
  api.slist_append = find(library, "curl_slist_append", &missing);
  api.slist_free_all = find(library, "curl_slist_free_all", &missing);
  api.multi_init = find(library, "curl_multi_init", &missing);
  api.multi_add_handle = find(library, "curl_multi_add_handle", &missing);
  api.multi_remove_handle = find(library, "curl_multi_remove_handle", &missing);
  api.multi_perform = find(library, "curl_multi_perform", &missing);
  // curl_multi_poll and curl_multi_wakeup arrived in libcurl 7.66 and 7.68.
  api.multi_poll = find(library, "curl_multi_poll", &missing);
  api.multi_wakeup = find(library, "curl_multi_wakeup", &missing);
  api.multi_info_read = find(library, "curl_multi_info_read", &missing);
  if (missing) return;
  api.easy_reset = dlsym(library, "curl_easy_reset");
  api.multi_setopt = dlsym(library, "curl_multi_setopt");
  api.multi_socket_action = dlsym(library, "curl_multi_socket_action");
  loaded = api.global_init(news_curl_global_default) == 0;
}

int news_curl_load(void) {
  pthread_once(&once, load);
  return loaded;
}

// Handles given back, reset, for the next transfers: a handle made and freed for each request
// was a twentieth of a refresh where every source answers 304.
enum { news_curl_pool_size = 64 };
static void *pool[news_curl_pool_size];
static int pooled;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

void *news_curl_easy_take(void) {
  void *easy = NULL;
  pthread_mutex_lock(&pool_lock);
  if (pooled > 0) easy = pool[--pooled];
  pthread_mutex_unlock(&pool_lock);
  return easy != NULL ? easy : api.easy_init();
}

void news_curl_easy_give(void *easy) {
  if (api.easy_reset == NULL) {
    api.easy_cleanup(easy);
    return;
  }
  // Reset at once: the handle keeps no pointer to what its transfer owned (headers, callbacks'
  // data), nor any option of it (a proxy, a method, a body).
  api.easy_reset(easy);
  pthread_mutex_lock(&pool_lock);
  int kept = pooled < news_curl_pool_size;
  if (kept) pool[pooled++] = easy;
  pthread_mutex_unlock(&pool_lock);
  if (!kept) api.easy_cleanup(easy);
}

int news_curl_setopt_long(void *easy, int option, long value) {
  return api.easy_setopt(easy, option, value);
}

int news_curl_setopt_pointer(void *easy, int option, const void *value) {
  return api.easy_setopt(easy, option, value);
}

int news_curl_setopt_callback(
    void *easy, int option, size_t (*callback)(char *, size_t, size_t, void *)) {
  return api.easy_setopt(easy, option, callback);
}

int news_curl_getinfo_long(void *easy, int info, long *value) {
  return api.easy_getinfo(easy, info, value);
}

const char *news_curl_strerror(int code) { return api.easy_strerror(code); }

void *news_curl_slist_append(void *list, const char *line) {
  return api.slist_append(list, line);
}

void news_curl_slist_free_all(void *list) { api.slist_free_all(list); }

void *news_curl_multi_init(void) { return api.multi_init(); }

int news_curl_multi_add_handle(void *multi, void *easy) {
  return api.multi_add_handle(multi, easy);
}

int news_curl_multi_remove_handle(void *multi, void *easy) {
  return api.multi_remove_handle(multi, easy);
}

int news_curl_multi_perform(void *multi, int *running) {
  return api.multi_perform(multi, running);
}

int news_curl_multi_poll(void *multi, int timeout_ms) {
  return api.multi_poll(multi, NULL, 0, timeout_ms, NULL);
}

int news_curl_multi_wakeup(void *multi) { return api.multi_wakeup(multi); }

void *news_curl_multi_next_done(void *multi, int *result) {
  int queued = 0;
  news_curl_message *message;
  while ((message = api.multi_info_read(multi, &queued)) != NULL) {
    if (message->msg == news_curl_message_done) {
      *result = message->data.result;
      return message->easy_handle;
    }
  }
  return NULL;
}

// The loop's waiting. With epoll (Linux), libcurl says which sockets to watch and when its next
// timer is due (curl_multi_socket_action): a wake-up touches only the transfers whose sockets
// are ready. Otherwise curl_multi_poll, and curl_multi_perform, which looks at every transfer at
// every wake-up: at 96 transfers in flight over many slow hosts that was ten polls of one socket
// a request, and two fifths of the CPU of a refresh where every feed answers 304.
struct news_curl_loop {
  void *multi;
  int epoll;  // -1: curl_multi_poll instead
  int wake;   // an eventfd in `epoll`
  // Whether a wake-up is written and not yet read: the threads that start or cancel transfers
  // write the eventfd only when none is (one write for a burst of 96 starts, not 96).
  atomic_int notified;
  int has_deadline;
  struct timespec deadline;  // libcurl's next timer, on the monotonic clock
  // Which sockets are in `epoll`, by descriptor (the loop's thread only): a socket libcurl
  // watches again is added, one it watches differently modified, without a failing call first.
  unsigned char *watched;
  int watched_count;
};

#if defined(__linux__)
static struct timespec news_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now;
}

static int news_on_socket(void *easy, int fd, int what, void *user, void *socket_data) {
  (void)easy;
  (void)socket_data;
  struct news_curl_loop *loop = user;
  if (fd < 0) return 0;
  if (fd >= loop->watched_count) {
    int count = loop->watched_count > 0 ? loop->watched_count : 256;
    while (count <= fd) count *= 2;
    unsigned char *grown = realloc(loop->watched, (size_t)count);
    if (grown == NULL) return -1;
    memset(grown + loop->watched_count, 0, (size_t)(count - loop->watched_count));
    loop->watched = grown;
    loop->watched_count = count;
  }
  if (what == news_curl_poll_remove) {
    if (loop->watched[fd]) epoll_ctl(loop->epoll, EPOLL_CTL_DEL, fd, NULL);
    loop->watched[fd] = 0;
    return 0;
  }
  struct epoll_event event = {0};
  event.events = ((what & news_curl_poll_in) ? EPOLLIN : 0u)
      | ((what & news_curl_poll_out) ? EPOLLOUT : 0u);
  event.data.fd = fd;
  int operation = loop->watched[fd] ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
  if (epoll_ctl(loop->epoll, operation, fd, &event) != 0) {
    // A descriptor closed and reused behind libcurl's back: told as the other operation.
    int other = operation == EPOLL_CTL_ADD ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    if (epoll_ctl(loop->epoll, other, fd, &event) != 0) return 0;
  }
  loop->watched[fd] = 1;
  return 0;
}

static int news_on_timer(void *multi, long timeout_ms, void *user) {
  (void)multi;
  struct news_curl_loop *loop = user;
  if (timeout_ms < 0) {
    loop->has_deadline = 0;
    return 0;
  }
  struct timespec deadline = news_now();
  deadline.tv_sec += timeout_ms / 1000;
  deadline.tv_nsec += (timeout_ms % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000L;
  }
  loop->deadline = deadline;
  loop->has_deadline = 1;
  return 0;
}
#endif

void *news_curl_loop_new(void *multi) {
  struct news_curl_loop *loop = calloc(1, sizeof(struct news_curl_loop));
  if (loop == NULL) return NULL;
  loop->multi = multi;
  atomic_init(&loop->notified, 0);
  loop->epoll = -1;
  loop->wake = -1;
#if defined(__linux__)
  if (api.multi_setopt != NULL && api.multi_socket_action != NULL) {
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    int wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    struct epoll_event event = {0};
    event.events = EPOLLIN;
    event.data.fd = wake;
    if (epoll >= 0 && wake >= 0 && epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event) == 0
        && api.multi_setopt(multi, news_curlmopt_socketfunction, news_on_socket) == 0
        && api.multi_setopt(multi, news_curlmopt_socketdata, loop) == 0
        && api.multi_setopt(multi, news_curlmopt_timerfunction, news_on_timer) == 0
        && api.multi_setopt(multi, news_curlmopt_timerdata, loop) == 0) {
      loop->epoll = epoll;
      loop->wake = wake;
    } else {
      if (epoll >= 0) close(epoll);
      if (wake >= 0) close(wake);
    }
  }
#endif
  return loop;
}

int news_curl_loop_uses_events(void *handle) {
  return ((struct news_curl_loop *)handle)->epoll >= 0;
}

void news_curl_loop_wake(void *handle) {
  struct news_curl_loop *loop = handle;
#if defined(__linux__)
  if (loop->epoll >= 0) {
    // Written already and not yet read: the loop reads what was handed to it after it reads
    // the eventfd, so it sees this call's transfer too.
    if (atomic_exchange(&loop->notified, 1) == 1) return;
    uint64_t one = 1;
    ssize_t written = write(loop->wake, &one, sizeof one);
    (void)written;  // a full counter is a wake-up already pending
    return;
  }
#endif
  api.multi_wakeup(loop->multi);
}

void news_curl_loop_step(void *handle, int longest_ms) {
  struct news_curl_loop *loop = handle;
  int running = 0;
#if defined(__linux__)
  if (loop->epoll >= 0) {
    int timeout = longest_ms;
    if (loop->has_deadline) {
      struct timespec now = news_now();
      long long left = (long long)(loop->deadline.tv_sec - now.tv_sec) * 1000
          + (loop->deadline.tv_nsec - now.tv_nsec + 999999) / 1000000;
      timeout = left <= 0 ? 0 : left < longest_ms ? (int)left : longest_ms;
    }
    struct epoll_event events[128];
    int count = epoll_wait(loop->epoll, events, 128, timeout);
    for (int i = 0; i < count; i++) {
      int fd = events[i].data.fd;
      if (fd == loop->wake) {
        uint64_t value;
        ssize_t read_bytes = read(loop->wake, &value, sizeof value);
        (void)read_bytes;
        // Before the caller reads what was handed over: a hand-over after this writes again.
        atomic_store(&loop->notified, 0);
        continue;
      }
      uint32_t ready = events[i].events;
      int mask = ((ready & (EPOLLIN | EPOLLHUP)) ? news_curl_cselect_in : 0)
          | ((ready & EPOLLOUT) ? news_curl_cselect_out : 0)
          | ((ready & EPOLLERR) ? news_curl_cselect_err : 0);
      api.multi_socket_action(loop->multi, fd, mask, &running);
    }
    if (loop->has_deadline) {
      struct timespec now = news_now();
      if (now.tv_sec > loop->deadline.tv_sec
          || (now.tv_sec == loop->deadline.tv_sec && now.tv_nsec >= loop->deadline.tv_nsec)) {
        loop->has_deadline = 0;
        api.multi_socket_action(loop->multi, news_curl_socket_timeout, 0, &running);
      }
    }
    return;
  }
#endif
  api.multi_poll(loop->multi, NULL, 0, longest_ms, NULL);
  api.multi_perform(loop->multi, &running);
}
