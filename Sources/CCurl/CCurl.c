#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>

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

static struct {
  int (*global_init)(long);
  void *(*easy_init)(void);
  void (*easy_cleanup)(void *);
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
  loaded = api.global_init(news_curl_global_default) == 0;
}

int news_curl_load(void) {
  pthread_once(&once, load);
  return loaded;
}

void *news_curl_easy_init(void) { return api.easy_init(); }
void news_curl_easy_cleanup(void *easy) { api.easy_cleanup(easy); }

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
