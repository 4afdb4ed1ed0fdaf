"""Where the repository keeps what the tests read but the application does not ship as
code: the shipped bank (top-level `bank/`) and its generator (`tools/bankgen/`)."""

from mockloop.env import BASE_DIR

SHIPPED_BANK_DIR = BASE_DIR / "bank"
BANKGEN_DIR = BASE_DIR / "tools" / "bankgen"
