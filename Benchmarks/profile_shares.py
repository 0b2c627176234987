#!/usr/bin/env python3
"""Prints the share of a callgrind profile's instructions spent on reference counting and on
allocation, from `callgrind_annotate --inclusive=no` output with demangled names on stdin.

Each function's own instructions (not those of its callees) go to one line of the table, so
the shares add up and a change can see what it took out of each.
"""
import re
import sys

# Runtime entry points and the compiler's outlined helpers that only retain, release, copy or
# destroy values: what passing values by copy costs, apart from the work done with them.
REFERENCE_COUNTING = re.compile(
    r"^(swift_(retain|release|bridgeObjectRetain|bridgeObjectRelease|unknownObjectRetain"
    r"|unknownObjectRelease|nonatomic_\w+|isUniquelyReferenced\w*|arrayInitWithCopy"
    r"|arrayDestroy|arrayAssignWithCopy\w*)(_n)?"
    r"|_swift_release_dealloc|bool swift::RefCounts.*::do(De|In)crementSlow.*"
    r"|outlined (copy|consume|retain|release|destroy) of .*"
    r"|(destroy|initializeWithCopy|assignWithCopy) (value )?(for|of) .*)('\d+)?$"
)
ALLOCATION = re.compile(
    r"^(malloc|free|cfree|calloc|realloc|malloc_usable_size|_int_malloc|_int_free"
    r"|_int_realloc|malloc_consolidate|unlink_chunk\S*|tcache\w*|swift_allocObject"
    r"|swift_deallocObject|swift_slowAlloc|swift_slowDealloc|swift_deallocClassInstance"
    r"|swift_allocBox|swift_deallocBox|swift_initStackObject)('\d+)?$"
)
LINE = re.compile(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(?:[^:]*):(.*)$")


def main():
    total = 0
    shares = {"reference counting": 0, "allocation": 0}
    for line in sys.stdin:
        if "PROGRAM TOTALS" in line:
            total = int(line.split()[0].replace(",", ""))
            continue
        match = LINE.match(line)
        if not match:
            continue
        cost, name = int(match.group(1).replace(",", "")), match.group(2).strip()
        name = re.sub(r" \[[^]]*\]$", "", name)
        if REFERENCE_COUNTING.match(name):
            shares["reference counting"] += cost
        elif ALLOCATION.match(name):
            shares["allocation"] += cost
    if not total:
        sys.exit("error: no PROGRAM TOTALS line in the callgrind_annotate output")
    print(f"{'instructions':<20} {total:>15,}")
    for label, cost in shares.items():
        print(f"{label:<20} {cost:>15,}  {100 * cost / total:5.1f}%")


if __name__ == "__main__":
    main()
