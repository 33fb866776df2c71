# The two commands of the README: `make demo` and `make test`.
# Both create .venv when it is missing, install the project into it (and, when
# run as root, the system libraries that speech needs), then do their job.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SYSPKGS := libespeak-ng1 espeak-ng libportaudio2 sox

.PHONY: demo test setup system-packages lint clean

demo: setup
	$(BIN)/companion demo

test: setup
	$(BIN)/python -m pytest -q

setup: $(STAMP)

# System libraries: installed when we are root and they are missing;
# otherwise named, so a user can install them by hand.
system-packages:
	@missing=""; for p in $(SYSPKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "Installing system packages:$$missing"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null) \
	    || echo "warning: could not install$$missing; speech will fall back to text"; \
	else \
	  echo "note: please install these system packages for speech:$$missing"; \
	fi

$(STAMP): pyproject.toml | system-packages
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

lint: setup
	$(BIN)/ruff check companion tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info
