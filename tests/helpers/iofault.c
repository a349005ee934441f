/* Fault injection for the I/O-error tests: fail the k-th file-system modification of this process.
 *
 * Built by tests/helpers/iofault.py and loaded with LD_PRELOAD into a test subprocess. Nothing happens
 * until Python calls iofault_arm(prefix, k) through ctypes; from then on every call below that
 * modifies something under `prefix` is counted, and the k-th one fails with ENOSPC (data, creation,
 * renames) or EIO (fsync, removal) instead of reaching the kernel. This covers Python's own writes,
 * SQLite's page writes (pwrite64) and hnswlib's ofstream writes (write/writev) alike, because they
 * all go through these libc entry points.
 *
 * Paths through /proc/self/fd/N/ count when folder N is under `prefix`.
 *
 * Counted: write, pwrite(64), writev, pwritev(64), sendfile(64), copy_file_range, fsync, fdatasync,
 * ftruncate(64), rename, renameat(2), mkdir(at), unlink(at), rmdir, and open/openat(64) that would
 * create a file.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static volatile int enabled = 0;
static long fail_at = 0;
static long counter = 0;
static char prefix[PATH_MAX];
static size_t prefix_len = 0;
static char failed[PATH_MAX + 64];

void iofault_arm(const char *path_prefix, long k) {
    strncpy(prefix, path_prefix, sizeof(prefix) - 1);
    prefix_len = strlen(prefix);
    fail_at = k;
    counter = 0;
    failed[0] = 0;
    __atomic_store_n(&enabled, 1, __ATOMIC_SEQ_CST);
}

long iofault_disarm(void) {
    __atomic_store_n(&enabled, 0, __ATOMIC_SEQ_CST);
    return counter;
}

const char *iofault_failed(void) { return failed; }

static int fd_under_prefix(int fd);

static int under_prefix(const char *path) {
    if (path == NULL) return 0;
    /* a file named through an open folder's descriptor (how the snapshot writer hands paths to
     * SQLite and hnswlib) is under the prefix when that folder is */
    static const char proc_fd[] = "/proc/self/fd/";
    if (strncmp(path, proc_fd, sizeof(proc_fd) - 1) == 0) {
        const char *digits = path + sizeof(proc_fd) - 1;
        char *end;
        long fd = strtol(digits, &end, 10);
        if (end != digits && *end == '/') return fd_under_prefix((int)fd);
    }
    if (strncmp(path, prefix, prefix_len) != 0) return 0;
    return path[prefix_len] == 0 || path[prefix_len] == '/';
}

static int fd_under_prefix(int fd) {
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n <= 0) return 0;
    target[n] = 0;
    return under_prefix(target);
}

static int at_under_prefix(int dirfd, const char *path) {
    if (path == NULL) return 0;
    if (path[0] == '/' || dirfd == AT_FDCWD) return under_prefix(path);
    return fd_under_prefix(dirfd);
}

/* Count one operation; returns the errno to fail it with, or 0 to let it through. */
static int count(int relevant, const char *op, const char *what, int err) {
    if (!__atomic_load_n(&enabled, __ATOMIC_SEQ_CST) || !relevant) return 0;
    long n = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
    if (n != fail_at) return 0;
    snprintf(failed, sizeof(failed), "%s %s", op, what ? what : "");
    return err;
}

static const char *fd_name(int fd) {
    static __thread char buf[32];
    snprintf(buf, sizeof(buf), "fd %d", fd);
    return buf;
}

#define REAL(name) \
    static __typeof__(&name) real_##name = NULL; \
    if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

#define FAIL_IF(cond, op, what, err, ret) \
    do { \
        int e_ = count((cond), (op), (what), (err)); \
        if (e_) { errno = e_; return (ret); } \
    } while (0)

ssize_t write(int fd, const void *buf, size_t n) {
    REAL(write);
    FAIL_IF(enabled && fd_under_prefix(fd), "write", fd_name(fd), ENOSPC, -1);
    return real_write(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
    REAL(pwrite);
    FAIL_IF(enabled && fd_under_prefix(fd), "pwrite", fd_name(fd), ENOSPC, -1);
    return real_pwrite(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
    REAL(pwrite64);
    FAIL_IF(enabled && fd_under_prefix(fd), "pwrite64", fd_name(fd), ENOSPC, -1);
    return real_pwrite64(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt) {
    REAL(writev);
    FAIL_IF(enabled && fd_under_prefix(fd), "writev", fd_name(fd), ENOSPC, -1);
    return real_writev(fd, iov, cnt);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off) {
    REAL(pwritev);
    FAIL_IF(enabled && fd_under_prefix(fd), "pwritev", fd_name(fd), ENOSPC, -1);
    return real_pwritev(fd, iov, cnt, off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off_t off) {
    REAL(pwritev64);
    FAIL_IF(enabled && fd_under_prefix(fd), "pwritev64", fd_name(fd), ENOSPC, -1);
    return real_pwritev64(fd, iov, cnt, off);
}

ssize_t sendfile(int out, int in, off_t *off, size_t n) {
    REAL(sendfile);
    FAIL_IF(enabled && fd_under_prefix(out), "sendfile", fd_name(out), ENOSPC, -1);
    return real_sendfile(out, in, off, n);
}

ssize_t sendfile64(int out, int in, off_t *off, size_t n) {
    REAL(sendfile64);
    FAIL_IF(enabled && fd_under_prefix(out), "sendfile64", fd_name(out), ENOSPC, -1);
    return real_sendfile64(out, in, off, n);
}

ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off, size_t n, unsigned flags) {
    REAL(copy_file_range);
    FAIL_IF(enabled && fd_under_prefix(out), "copy_file_range", fd_name(out), ENOSPC, -1);
    return real_copy_file_range(in, in_off, out, out_off, n, flags);
}

int fsync(int fd) {
    REAL(fsync);
    FAIL_IF(enabled && fd_under_prefix(fd), "fsync", fd_name(fd), EIO, -1);
    return real_fsync(fd);
}

int fdatasync(int fd) {
    REAL(fdatasync);
    FAIL_IF(enabled && fd_under_prefix(fd), "fdatasync", fd_name(fd), EIO, -1);
    return real_fdatasync(fd);
}

int ftruncate(int fd, off_t len) {
    REAL(ftruncate);
    FAIL_IF(enabled && fd_under_prefix(fd), "ftruncate", fd_name(fd), ENOSPC, -1);
    return real_ftruncate(fd, len);
}

int ftruncate64(int fd, off_t len) {
    REAL(ftruncate64);
    FAIL_IF(enabled && fd_under_prefix(fd), "ftruncate64", fd_name(fd), ENOSPC, -1);
    return real_ftruncate64(fd, len);
}

int rename(const char *from, const char *to) {
    REAL(rename);
    FAIL_IF(enabled && under_prefix(to), "rename", to, ENOSPC, -1);
    return real_rename(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
    REAL(renameat);
    FAIL_IF(enabled && at_under_prefix(tofd, to), "renameat", to, ENOSPC, -1);
    return real_renameat(fromfd, from, tofd, to);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned flags) {
    REAL(renameat2);
    FAIL_IF(enabled && at_under_prefix(tofd, to), "renameat2", to, ENOSPC, -1);
    return real_renameat2(fromfd, from, tofd, to, flags);
}

int mkdir(const char *path, mode_t mode) {
    REAL(mkdir);
    FAIL_IF(enabled && under_prefix(path), "mkdir", path, ENOSPC, -1);
    return real_mkdir(path, mode);
}

int mkdirat(int dirfd, const char *path, mode_t mode) {
    REAL(mkdirat);
    FAIL_IF(enabled && at_under_prefix(dirfd, path), "mkdirat", path, ENOSPC, -1);
    return real_mkdirat(dirfd, path, mode);
}

int unlink(const char *path) {
    REAL(unlink);
    FAIL_IF(enabled && under_prefix(path), "unlink", path, EIO, -1);
    return real_unlink(path);
}

int unlinkat(int dirfd, const char *path, int flags) {
    REAL(unlinkat);
    FAIL_IF(enabled && at_under_prefix(dirfd, path), "unlinkat", path, EIO, -1);
    return real_unlinkat(dirfd, path, flags);
}

int rmdir(const char *path) {
    REAL(rmdir);
    FAIL_IF(enabled && under_prefix(path), "rmdir", path, EIO, -1);
    return real_rmdir(path);
}

/* Creating a file needs a directory entry and an inode: count opens that would create one. */
static int creates(int dirfd, const char *path, int flags) {
    if (!enabled || !(flags & O_CREAT) || !at_under_prefix(dirfd, path)) return 0;
    if (flags & O_EXCL) return 1;
    struct stat st;
    return fstatat(dirfd, path, &st, 0) != 0;
}

#define OPEN_MODE(flags, mode) \
    mode_t mode = 0; \
    if ((flags) & (O_CREAT | O_TMPFILE)) { \
        va_list ap; \
        va_start(ap, flags); \
        mode = (mode_t)va_arg(ap, int); \
        va_end(ap); \
    }

int open(const char *path, int flags, ...) {
    OPEN_MODE(flags, mode);
    REAL(open);
    FAIL_IF(creates(AT_FDCWD, path, flags), "create", path, ENOSPC, -1);
    return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    OPEN_MODE(flags, mode);
    REAL(open64);
    FAIL_IF(creates(AT_FDCWD, path, flags), "create", path, ENOSPC, -1);
    return real_open64(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    OPEN_MODE(flags, mode);
    REAL(openat);
    FAIL_IF(creates(dirfd, path, flags), "create", path, ENOSPC, -1);
    return real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    OPEN_MODE(flags, mode);
    REAL(openat64);
    FAIL_IF(creates(dirfd, path, flags), "create", path, ENOSPC, -1);
    return real_openat64(dirfd, path, flags, mode);
}
