# Faults injected into a campaign of `--engine manager`: test_faults.sh's
# faults and checks (a worker killed mid-request, then the campaign killed
# with -9 mid-request and its OUT damaged; the same command resumes; no
# corpus input or finding lost), a slot's worker in place of a fork job's.
ENGINE=manager
source "$(dirname "$0")/test_faults.sh"
