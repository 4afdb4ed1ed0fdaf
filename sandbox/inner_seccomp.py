"""Image build step: the inner sandbox's seccomp filter, as a BPF program file.

``python3 inner_seccomp.py OUT.bpf`` (in the runner image, with Debian's
``python3-seccomp``, i.e. libseccomp's own bindings); ``slot.py`` hands the file to
bubblewrap (``--seccomp FD``), which loads it just before it executes the runner, so
the runner and everything the candidate's code starts run under it.

Stricter than the outer container's profile (Docker's default plus what bubblewrap
needs): the outer one must let bubblewrap create namespaces and mount, this one takes
that back, and it refuses what Docker's default still allows (io_uring) or what no
judged program needs. Everything else is allowed (the outer profile filters too). A
refused call fails with EPERM (ENOSYS for clone3, so that the C library falls back to
clone, whose flags can be inspected); a call from another architecture's ABI (i386,
x32) kills the process, libseccomp's default for an architecture the filter lacks.
"""

from __future__ import annotations

import errno
import sys

REFUSED = (
    # kernel attack surface no judged program needs
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "bpf",
    "userfaultfd",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    # other processes' memory
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    # namespaces and mounts: bubblewrap's, not the candidate's
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "mount_setattr",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "name_to_handle_at",
    "open_by_handle_at",
    # the machine's
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "syslog",
    "iopl",
    "ioperm",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "lookup_dcookie",
)
CLONE_NAMESPACE_FLAGS = (
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
    0x00000080,  # CLONE_NEWTIME
)
AF_NETLINK, AF_PACKET = 16, 17


def build(path: str) -> None:
    import seccomp

    refuse = seccomp.ERRNO(errno.EPERM)
    flt = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in REFUSED:
        flt.add_rule(refuse, name)
    for flag in CLONE_NAMESPACE_FLAGS:
        flt.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    flt.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    for family in (AF_NETLINK, AF_PACKET):
        flt.add_rule(
            seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, family)
        )
    with open(path, "wb") as fh:
        flt.export_bpf(fh)


if __name__ == "__main__":
    build(sys.argv[1])
