#!/usr/bin/env python3
"""Writes repro/experiments.csv: for every (table, machine, workload, scheduler) of the
published tables (repro/published/*.csv), the hetsched run that reproduces it.
Rerun after editing; `hetsched reproduce` reads only the CSV."""
import csv, glob, os

HERE = os.path.dirname(os.path.abspath(__file__))
ROMAN_CONTIG = {'1': 0, '2': 50, '3': 100}
SCHED = {  # published label -> scheduler spec
    'backfill-basic': 'backfill',
    'backfill-multifactor': 'backfill:priority=multifactor',
    'ipsched-basic-pr': 'ipsched:objective=priority_cores',
    'ipsched-basic-p': 'ipsched:objective=priority',
    'ipsched-multifactor-p': 'ipsched:priority=multifactor,objective=priority',
    'ipsched-multifactor-pr': 'ipsched:priority=multifactor,objective=priority_cores',
    'aucsched1-basic': 'aucsched1:max_bids_per_job=5',
    'aucsched1-multifactor': 'aucsched1:priority=multifactor,max_bids_per_job=5',
}
# 004 months: job counts of the Eurora months (004 §4.3), one generated month each.
MONTHS = {'apr2015': 'eurora:days=30,jobs_per_day=124.67',
          'apr2014': 'eurora:days=30,jobs_per_day=2841.5',
          'sep2014': 'eurora:days=30,jobs_per_day=2592.87',
          'aug2014': 'eurora:days=31,jobs_per_day=1547.32'}
CLUSTER = {'S': 'S', 'M': 'M', 'L': 'L', 'paper1024': 'paper1024', 'tsubame2': 'tsubame2',
           'tree1024': 'tree1024', 'eurora': 'eurora'}


def run_for(table, machine, workload, sched):
    """(cluster, workload spec, scheduler spec) for one published row."""
    cluster = CLUSTER[machine]
    if table in ('002-V', '003-A.1'):
        return cluster, 'esp-het', SCHED[sched]
    if table == '002-VI':
        return cluster, 'esp-het-random', SCHED[sched]
    if table in ('000-5', '000-6', '000-7', '003-A.2'):
        mix, version = workload.split('.')
        spec = 'synthetic:mix=%s,contig=%d' % (mix, ROMAN_CONTIG[version])
        s = SCHED.get(sched) or {'aucsched1': SCHED['aucsched1-basic'], 'backfill': 'backfill'}[sched]
        return cluster, spec, s
    if table == '003-A.3':
        ranges = ',ranges=true' if sched == 'aucsched2' else ''
        return cluster, 'tsubame:' + workload + ranges, sched
    if table == '003-A.4':
        # Backfill cannot run GPU ranges: its 5'/6' rows repeat workloads 5/6 (as published).
        wl = workload.rstrip("'") if sched == 'backfill' else workload
        return cluster, 'tree1024:' + wl, sched
    if table == '003-A.5':
        return cluster, 'tsubame:' + workload, sched
    if table in ('004-2', '004-3'):
        return cluster, MONTHS[workload], sched
    raise SystemExit('no mapping for table ' + table)


# One small run per table for --quick (R = 1): same schedulers, much smaller inputs.
QUICK = {
    ('002-V', 'backfill-basic'): 'esp-het',
    ('002-V', 'backfill-multifactor'): 'esp-het',
    ('002-VI', 'backfill-multifactor'): 'esp-het-random',
    ('000-5', 'I.1', 'backfill'): 'synthetic:mix=I,contig=0,hours=0.5',
    ('000-5', 'I.1', 'aucsched1'): 'synthetic:mix=I,contig=0,hours=0.5',
    ('000-6', 'V.3', 'backfill'): 'synthetic:mix=V,contig=100,hours=0.5',
    ('000-7', 'IV.2', 'backfill'): 'synthetic:mix=IV,contig=50,hours=0.25',
    ('003-A.1', 'backfill-basic'): 'esp-het',
    ('003-A.2', 'I.1', 'backfill-basic'): 'synthetic:mix=I,contig=0,hours=0.25',
    ('003-A.3', 'wl84=7', 'backfill'): 'tsubame:kinds=ABCDE,jobs=200',
    ('003-A.4', 'wl=5', 'backfill'): 'tree1024:wl=5',
    ('003-A.5', 'wl=3', 'backfill'): 'tsubame:kinds=ABCDE,jobs=200',
    ('004-2', 'apr2015', 'easy+ff+datadriven'): 'eurora:days=2,jobs_per_day=100',
    ('004-3', 'aug2014', 'easy+weighted+datadriven'): 'eurora:days=2,jobs_per_day=100',
}


def quick_spec(table, workload, sched):
    return QUICK.get((table, workload, sched)) or QUICK.get((table, sched)) or ''


def main():
    seen, out = set(), []
    for path in sorted(glob.glob(os.path.join(HERE, 'published', '*.csv'))):
        for r in csv.DictReader(open(path)):
            table = r['source'] + '-' + r['table']
            key = (table, r['machine'], r['workload'], r['scheduler'])
            if key in seen:
                continue
            seen.add(key)
            cluster, wspec, sspec = run_for(table, r['machine'], r['workload'], r['scheduler'])
            out.append(list(key) + [cluster, wspec, sspec, quick_spec(table, r['workload'], r['scheduler'])])
    with open(os.path.join(HERE, 'experiments.csv'), 'w', newline='') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(['table', 'machine', 'workload', 'scheduler', 'cluster', 'workload_spec',
                    'scheduler_spec', 'quick_workload_spec'])
        w.writerows(out)
    print(len(out), 'experiments,', sum(1 for o in out if o[-1]), 'in quick mode')


if __name__ == '__main__':
    main()
