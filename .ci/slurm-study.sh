#!/usr/bin/env bash
# The LATTE-CC sample study as a Slurm array job on a single-node cluster
# started here, checked against the same plan run locally:
#
#   1. install Debian's Slurm and munge if missing, start munged, slurmctld
#      and slurmd as root without systemd (a throwaway configuration in a
#      temporary directory);
#   2. plan the sample study, run it locally, and collect it;
#   3. run it as an array job (sbatch --wait) and require the collected CSV
#      byte-identical to the local one;
#   4. interrupt: cancel one array task of a fresh run while the array runs,
#      delete two results and cut one short, then resubmit and require that
#      exactly the missing and broken jobs ran again and that the collected
#      CSV is still byte-identical;
#   5. shut everything down, leaving no daemon, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d /tmp/linecomp-slurm.XXXXXX)
export SLURM_CONF=$work/slurm.conf
started=()

cleanup() {
	if [ -f "$SLURM_CONF" ] && command -v scontrol >/dev/null; then
		scontrol shutdown >/dev/null 2>&1 || true
	fi
	for pidfile in "$work/slurmctld.pid" "$work/slurmd.pid" /run/munge/munged.pid; do
		pid=$(cat "$pidfile" 2>/dev/null || true)
		[ -n "$pid" ] || continue
		for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
	echo "slurm: installing slurmctld, slurmd, slurm-client and munge"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi

# munge: a key, its run directory, the daemon as the munge user.
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
install -d -o munge -g munge -m 0755 /run/munge
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
	runuser -u munge -- /usr/sbin/munged
fi
for _ in $(seq 50); do munge -n </dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done

mkdir -p "$work"/{state,spool,log}
cat >"$SLURM_CONF" <<CONF
ClusterName=linecomp-ci
SlurmctldHost=$(hostname -s)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
$(slurmd -C | head -1) State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
setsid slurmctld -D -i >"$work/log/slurmctld.out" 2>&1 </dev/null &
started+=($!)
setsid slurmd -D >"$work/log/slurmd.out" 2>&1 </dev/null &
started+=($!)
for _ in $(seq 120); do [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break; sleep 0.25; done
if [ "$(sinfo -h -o %T 2>/dev/null)" != idle ]; then
	echo "slurm: the node did not come up" >&2
	cat "$work/log/"* >&2 || true
	exit 1
fi
sinfo

go build -o "$work/linecomp" ./cmd/linecomp
lc=$work/linecomp
plan=$work/latte.plan
"$lc" study plan latte -o "$plan"
jobs=$(wc -l <"$plan")

"$lc" study run -plan "$plan" -dir "$work/local"
"$lc" study collect -dir "$work/local" -format csv >"$work/local.csv"

# An array job of tasks of 5 jobs each.
"$lc" study slurm -dir "$work/slurm" -chunk 5 -linecomp "$lc" -o "$work/study.sbatch" "$plan"
mkdir -p "$work/slurm"
sbatch --wait "$work/study.sbatch"
"$lc" study collect -dir "$work/slurm" -format csv >"$work/slurm.csv"
cmp "$work/local.csv" "$work/slurm.csv"
echo "slurm: the array job's results equal the local run's ($jobs jobs)"

# Interrupt a second array run: cancel its task 1 as soon as it runs.
"$lc" study slurm -dir "$work/cut" -chunk 5 -linecomp "$lc" -o "$work/cut.sbatch" "$plan"
mkdir -p "$work/cut"
array=$(sbatch --parsable "$work/cut.sbatch")
for _ in $(seq 200); do
	state=$(squeue -h -j "${array}_1" -o %T 2>/dev/null || true)
	[ "$state" = RUNNING ] && break
	[ -z "$state" ] && break
	sleep 0.05
done
scancel "${array}_1" || true
for _ in $(seq 600); do [ -z "$(squeue -h -j "$array" 2>/dev/null)" ] && break; sleep 0.25; done
# Break three more results: two deleted, one cut short.
mapfile -t results < <(ls "$work/cut"/0*.json)
rm -f "${results[0]}" "${results[20]}"
head -c 100 "${results[30]}" >"$work/cut.tmp" && mv "$work/cut.tmp" "${results[30]}"
have=$(ls "$work/cut"/0*.json | wc -l)
missing=$((jobs - have + 1)) # the cut-short one is there but broken
echo "slurm: after the interruption $have of $jobs results are there, one of them cut short"
if "$lc" study collect -dir "$work/cut" -format csv >/dev/null 2>&1; then
	echo "slurm: collect accepted an interrupted run" >&2
	exit 1
fi
again=$(sbatch --parsable --wait "$work/cut.sbatch")
ran=$(cat "$work/cut"/slurm-"${again}"_*.out | sed -n 's/.*study run: ran \([0-9]*\),.*/\1/p' | awk '{s += $1} END {print s + 0}')
if [ "$ran" != "$missing" ]; then
	echo "slurm: the resubmission ran $ran jobs, want the $missing missing or broken" >&2
	cat "$work/cut"/slurm-"${again}"_*.out >&2
	exit 1
fi
"$lc" study collect -dir "$work/cut" -format csv >"$work/cut.csv"
cmp "$work/local.csv" "$work/cut.csv"
echo "slurm: the resubmission ran only the $missing missing or broken jobs; results equal the local run's"
