// libcurl, reached at run time: the program links no library of its own for it.
//
// On Linux, Foundation's URLSession drives libcurl through a dispatch source that stays armed for
// writing once a request is sent, so a process waiting on a slow server spins a core (see
// Sources/NewsCore/HTTP/CurlHTTPClient.swift). `news` calls the same libcurl directly instead,
// through this small shim: libcurl's setters are variadic, which Swift cannot call, and its
// headers are not installed on every machine, so the shim declares the few calls it needs and
// finds them with dlopen in the library Foundation itself loads.
#ifndef NEWS_CCURL_H
#define NEWS_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// Loads libcurl and initialises it once; 1 when every call below is usable, 0 otherwise.
int news_curl_load(void);

void *news_curl_easy_init(void);
void news_curl_easy_cleanup(void *easy);
int news_curl_setopt_long(void *easy, int option, long value);
int news_curl_setopt_pointer(void *easy, int option, const void *value);
/// Sets a callback of libcurl's write or header shape: (data, size, count, user data) -> bytes.
int news_curl_setopt_callback(
    void *easy, int option, size_t (*callback)(char *, size_t, size_t, void *));
int news_curl_getinfo_long(void *easy, int info, long *value);
const char *news_curl_strerror(int code);

void *news_curl_slist_append(void *list, const char *line);
void news_curl_slist_free_all(void *list);

void *news_curl_multi_init(void);
int news_curl_multi_add_handle(void *multi, void *easy);
int news_curl_multi_remove_handle(void *multi, void *easy);
int news_curl_multi_perform(void *multi, int *running);
/// Waits up to `timeout_ms` for activity on the transfers' sockets or for a wake-up.
int news_curl_multi_poll(void *multi, int timeout_ms);
int news_curl_multi_wakeup(void *multi);
/// The next finished transfer: its handle, with its result in `result`; NULL when none.
void *news_curl_multi_next_done(void *multi, int *result);

#endif
