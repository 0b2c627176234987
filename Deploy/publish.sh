#!/usr/bin/env bash
# Publishes a built site with rsync so that no visitor sees two builds mixed
# (docs/how-to/deploy.md): first the files named by their bytes that the destination lacks,
# then every other file that changed (the pages, the search's manifest, the feeds), then the
# removal of what the site no longer has.
#
#   Deploy/publish.sh [RSYNC_OPTION...] Output/ user@host:/srv/www/shop/fruits/
#
# Options go to both runs of rsync (-n to see what it would do, -e 'ssh -p 2222', -v).
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 [RSYNC_OPTION...] OUTPUT/ DESTINATION/" >&2
    exit 2
fi

# A stamp is 8 characters of lowercase base32 before the name's extension (site.k3j5h2a9.css),
# or at its end.
s='[a-z2-7]'
stamp="*.$s$s$s$s$s$s$s$s"

# 1. The new stamped files. A stamped name always means the same bytes: one already there stays.
rsync -a --ignore-existing --prune-empty-dirs \
    --include='*/' --include="$stamp" --include="$stamp.*" --exclude='*' "$@"

# 2. Everything else, then the removals. rsync's quick check compares times to the second unless
#    told otherwise: a manifest rebuilt within the same second, at the same size, would be left.
rsync -a --modify-window=-1 --delete-after "$@"
