# OpenVibe.Live backend. `make run` starts the standalone server; `make test` runs everything.
SHELL := /bin/bash
GO ?= go
# OPENVIBE_ADDR and OPENVIBE_DATA_DIR from the environment win over the defaults; ADDR= and
# DATA_DIR= on the command line win over both.
OPENVIBE_ADDR ?= 127.0.0.1:8080
OPENVIBE_DATA_DIR ?= ./data
ADDR ?= $(OPENVIBE_ADDR)
DATA_DIR ?= $(OPENVIBE_DATA_DIR)

.PHONY: run demo build test test-short lint fuzz bench test-reliability soak up down clean

## run: build and start the standalone server (SQLite under ./data, in-process broker)
run:
	@mkdir -p bin $(DATA_DIR)
	$(GO) build -o bin/openvibe-live ./services/standalone
	OPENVIBE_ADDR=$(ADDR) OPENVIBE_DATA_DIR=$(DATA_DIR) ./bin/openvibe-live serve $(ARGS)

## demo: like run, with a demo account, slot, token and a scripted publisher
demo:
	@$(MAKE) run ARGS=--demo

## build: build every binary into ./bin
build:
	@mkdir -p bin
	$(GO) build -o bin/openvibe-live ./services/standalone
	$(GO) build -o bin/publish-gateway ./services/publish-gateway
	$(GO) build -o bin/chat-socket ./services/chat-socket
	$(GO) build -o bin/api ./services/api
	$(GO) build -o bin/agent-runner ./services/agent-runner
	$(GO) build -o bin/vibe-publish ./clients/vibe-publish

## test: every module's tests with -race, against real PostgreSQL and Redis started locally
test:
	bash scripts/test.sh

## lint: go vet, gofmt and go mod tidy checks per module
lint:
	bash scripts/lint.sh

## fuzz: run every fuzz target for FUZZTIME each (default 10s)
fuzz:
	bash scripts/fuzz.sh $(or $(FUZZTIME),10s)

## bench: go test benchmarks (short)
bench:
	bash scripts/bench.sh

## test-reliability: fault suite (kill -9, Redis and PostgreSQL outages) against real processes
test-reliability:
	bash scripts/reliability.sh

## soak: the mixed load scenario for SOAK (default 10m)
soak:
	bash scripts/soak.sh $(or $(SOAK),10m)

## up: the distributed mode on this machine: PostgreSQL, Redis, two replicas of each service, a proxy
up:
	bash scripts/up.sh

down:
	bash scripts/up.sh stop

clean:
	rm -rf bin artifacts
