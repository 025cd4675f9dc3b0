# Every target installs dependencies first when node_modules is missing or older than the lock file,
# so `make demo` and `make test` are each one command on a fresh clone.
.PHONY: setup demo test bench golden typecheck lint unit

STAMP := node_modules/.installed

$(STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup:
	npm ci --no-audit --no-fund
	@touch $(STAMP)

demo: $(STAMP)
	npx tsx pipeline/demo.ts

typecheck: $(STAMP)
	npx tsc --noEmit

lint: $(STAMP)
	npx biome check .

unit: $(STAMP)
	npx vitest run

test: typecheck lint unit

golden: $(STAMP)
	UPDATE_GOLDEN=1 npx vitest run test/contract/openapi-golden.test.ts

bench: $(STAMP)
	npx tsx bench/run.ts
