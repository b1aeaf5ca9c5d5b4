#!/usr/bin/env bash
# The page's vendored libraries, pinned in package-lock.json, each with its licence, into
# www/vendor/: Chart.js (the panels' and the runs' charts), @fluent/bundle and @fluent/langneg (the
# catalogs, and which language a browser prefers); then the exercise sets' compiled schema and
# their guide in each language.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p www/vendor
cp node_modules/chart.js/dist/chart.umd.min.js www/vendor/chart.umd.min.js
cp node_modules/chart.js/LICENSE.md www/vendor/chart.js-LICENSE.md
for package in bundle langneg; do
  rm -rf "www/vendor/fluent-$package"
  mkdir -p "www/vendor/fluent-$package"
  cp node_modules/@fluent/$package/esm/*.js "www/vendor/fluent-$package/"
  # The package ships no licence file: its package.json names it (Apache-2.0).
  cp node_modules/@fluent/$package/package.json "www/vendor/fluent-$package/package.json"
done
node scripts/compile-schema.mjs
node scripts/compile-guide.mjs
