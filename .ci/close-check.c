// A close(2) of a descriptor that is not open, caught: .ci/run preloads this into the test
// run (LD_PRELOAD), and the tests pass it on to the `news` they start (SanitizerOptions in
// TestSupport). A descriptor closed twice is a bug AddressSanitizer cannot see: the second
// close fails with EBADF when the number is still free, and otherwise closes whatever another
// thread opened under that number since (a test once read the store's key check through a
// descriptor closed so). Each EBADF from the test bundle or `news` is appended, with its
// backtrace, to the file NEWS_CLOSE_CHECK_LOG names; .ci/run fails when that file is not empty.
// Other programs (the package manager, the compiler, a shell) are left alone.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int (*real_close)(int);

// Whether this process is one of ours: the test bundle or `news`.
static int checked(void) {
  static int answer = -1;
  if (answer < 0) {
    char path[4096];
    ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    path[length > 0 ? length : 0] = 0;
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    answer = strstr(name, "PackageTests") != NULL || strcmp(name, "news") == 0;
  }
  return answer;
}

int close(int descriptor) {
  if (real_close == NULL) real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
  int result = real_close(descriptor);
  if (result != 0 && errno == EBADF && checked()) {
    int saved = errno;
    const char *log_path = getenv("NEWS_CLOSE_CHECK_LOG");
    int log = log_path ? open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (log >= 0) {
      char line[160];
      int count = snprintf(
          line, sizeof line, "close(%d): not an open descriptor (process %d)\n", descriptor,
          (int)getpid());
      if (count > 0) (void)!write(log, line, (size_t)count);
      void *frames[48];
      backtrace_symbols_fd(frames, backtrace(frames, 48), log);
      real_close(log);
    }
    errno = saved;
  }
  return result;
}
