# Every target installs dependencies first when node_modules is missing or older than the lock file,
# so `make demo` and `make test` are each one command on a fresh clone.
# `npm ci`: installs exactly what package-lock.json names and never rewrites it (it stops with an error
# when package.json and the lock disagree). The lock lists every platform's optional native builds
# (duckdb, rollup, esbuild), so a macOS or ARM machine installs what the lock names and a fresh clone's
# tree stays clean. Proven on a fresh clone here (2026-11-25: 510 packages in about 2 minutes,
# better-sqlite3 built, `git status` clean afterwards). Adding a package: `npm install -D NAME@VERSION`,
# then commit package.json and package-lock.json together.
.PHONY: setup demo test bench golden typecheck lint deps unit web screenshots pack-preview readme-picture docs-text architecture-picture

STAMP := node_modules/.installed

NPM_INSTALL := npm ci --no-audit --no-fund

# A node_modules that is a symbolic link belongs to another checkout (a git worktree sharing it): it is
# never installed into from here, where npm would replace the link or empty the folder it points to.
$(STAMP): package.json package-lock.json
	@if [ -L node_modules ]; then echo "node_modules is a link to another checkout's: not installing here"; else $(NPM_INSTALL) && touch $@; fi

setup:
	@if [ -L node_modules ]; then echo "node_modules is a link to another checkout's: not installing here"; else $(NPM_INSTALL) && touch $(STAMP); fi

# DEMO_ARGS passes options to `sbm demo`, e.g. `make demo DEMO_ARGS="--history-days 3"` for a quick
# world (the current tax year's pack is then not on sale: its days are not all collected).
DEMO_ARGS ?=

demo: $(STAMP) web
	npm run -s sbm -- demo $(DEMO_ARGS)

# The explorer's bundle (gateway/web/dist, not committed): rebuilt only when its sources changed (a hash
# of them is kept beside it). The gateway also builds it at start-up when it is missing or stale.
web: $(STAMP)
	@npx tsx gateway/web/build-command.ts

# The explorer's browser code has its own program (DOM types, no Node types).
typecheck: $(STAMP)
	npx tsc --noEmit
	npx tsc --noEmit -p gateway/web/src

lint: $(STAMP)
	npx biome check .

# The layer rules of .dependency-cruiser.cjs (README "Architecture"); one line when they hold.
deps: $(STAMP)
	@npx tsx test/architecture/check-layers.ts

# The JSON report feeds the closing lines (test/support/test-summary.ts): each skipped test with the
# reason its title gives, so a green run says what it did not check, then one line any CI reader
# understands, last: `N passed, N failed`, with `, N skipped` when any were. The dot reporter and
# vitest.config.ts's `silent: 'passed-only'` keep a passing run to the summary: a failing test prints
# its name, its error and its console output.
unit: $(STAMP) web
	npx vitest run --reporter=dot --reporter=json --outputFile=node_modules/.vitest-report.json
	@npx tsx test/support/test-summary.ts node_modules/.vitest-report.json

test: typecheck lint deps unit

golden: $(STAMP)
	UPDATE_GOLDEN=1 npx vitest run test/contract/openapi-golden.test.ts

# wrk and nginx (Debian's packages) are installed when absent and possible; without wrk the gateway bench
# uses autocannon, without nginx it compares with the bare node:http server only. The pack benches
# (pack-growth, pack-order, pack-points) share one published year of the sandbox with its big coldkeys (about
# 4 minutes to collect); `npx tsx test/bench/run.ts pack-` runs those three alone.
bench: $(STAMP)
	bash test/bench/install-wrk.sh
	bash test/bench/install-nginx.sh
	npx tsx test/bench/run.ts

# Screenshots of the explorer (desktop 1280 px and phone 375 px, light and dark) under test-results/,
# taken by the browser tests against the sandbox world; installs Debian's chromium when absent.
screenshots: $(STAMP) web
	npx vitest run test/web/explorer-browser.test.ts
	@ls test-results/explorer/*.png

# The tax pack of the sandbox's demo coldkey, its PDF rendered to PNG pages (poppler-utils installed when absent).
pack-preview: $(STAMP)
	npx tsx test/tools/pack-preview.ts --out data/pack-preview

# The README's explorer picture (docs/explorer.png): the front page over the sandbox's mainnet world, as
# `make demo` shows it (test/web/readme-picture-world.ts), reduced with pngquant.
readme-picture: $(STAMP) web
	npx tsx test/web/readme-picture-world.ts
	bash test/web/readme-picture.sh

# docs/tax-method.md's block of the tax pack's own words, rendered from pipeline/tax/products/pack/pack-text.ts.
docs-text:
	npx tsx test/tools/tax-method-text.ts --write

# docs/architecture.md's two pictures (docs/architecture-layers.svg, docs/architecture-pack-order.svg), drawn
# from the data in test/tools/architecture-picture.ts; test/architecture/architecture-picture.test.ts fails
# when a committed picture differs from what it draws, or names a folder that does not exist.
architecture-picture:
	npx tsx test/tools/architecture-picture.ts --write
