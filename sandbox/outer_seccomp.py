"""The warm container's seccomp profile: Docker's default, plus what bubblewrap needs.

Docker's built-in profile is an allowlist compiled into dockerd; the API cannot extend
it ("seccomp=<profile>" replaces it). So this profile is written here: what Docker's
default refuses a container without capabilities (the syscalls its documentation lists
as blocked, and those it allows only with a capability we drop), minus the five that
bubblewrap needs to build the inner sandbox — ``clone`` with namespace flags,
``unshare``, ``mount``, ``umount2``, ``pivot_root`` — plus a few Docker allows that no
judged program nor bubblewrap needs (``ptrace``, ``process_vm_*``, ``kcmp``,
``pidfd_getfd``). Candidate code never runs under this profile alone: bubblewrap loads
the stricter inner filter (``sandbox/inner_seccomp.py``) before it executes the runner.
See ``docs/decisions.md`` ("Two-layer sandbox") for what this layer gives up.
"""

from __future__ import annotations

import functools
import json
import platform

EPERM, ENOSYS = 1, 38
REFUSED = (
    "acct",
    "add_key",
    "bpf",
    "chroot",
    "clock_adjtime",
    "clock_settime",
    "create_module",
    "delete_module",
    "fanotify_init",
    "finit_module",
    "fsconfig",
    "fsmount",
    "fsopen",
    "fspick",
    "get_kernel_syms",
    "get_mempolicy",
    "init_module",
    "ioperm",
    "iopl",
    "kcmp",
    "kexec_file_load",
    "kexec_load",
    "keyctl",
    "lookup_dcookie",
    "mbind",
    "mount_setattr",
    "move_mount",
    "move_pages",
    "name_to_handle_at",
    "nfsservctl",
    "open_by_handle_at",
    "open_tree",
    "perf_event_open",
    "pidfd_getfd",
    "process_vm_readv",
    "process_vm_writev",
    "ptrace",
    "query_module",
    "quotactl",
    "reboot",
    "request_key",
    "set_mempolicy",
    "setdomainname",
    "sethostname",
    "setns",
    "settimeofday",
    "stime",
    "swapoff",
    "swapon",
    "syslog",
    "sysfs",
    "_sysctl",
    "umount",
    "uselib",
    "userfaultfd",
    "ustat",
    "vhangup",
    "vm86",
    "vm86old",
)
# what bubblewrap needs on top of Docker's default (measured: issue 15)
BWRAP_NEEDS = ("clone", "unshare", "mount", "umount2", "pivot_root")
ARCHITECTURES = {
    "x86_64": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
    "aarch64": ["SCMP_ARCH_AARCH64", "SCMP_ARCH_ARM"],
}


@functools.cache
def profile_json() -> str:
    """The profile as Docker's API takes it (``security_opt=["seccomp=<json>"]``)."""
    profile = {
        "defaultAction": "SCMP_ACT_ALLOW",
        "architectures": ARCHITECTURES.get(platform.machine(), []),
        "syscalls": [
            {"names": list(REFUSED), "action": "SCMP_ACT_ERRNO", "errnoRet": EPERM},
            # like Docker's default without CAP_SYS_ADMIN: the C library falls back to
            # clone, whose flags a filter can read
            {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": ENOSYS},
        ],
    }
    return json.dumps(profile, separators=(",", ":"))
