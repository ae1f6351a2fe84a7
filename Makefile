# Install news like a Unix tool: the release binary, its manual page and the bash, zsh and fish
# completions, in their standard places under PREFIX (and DESTDIR, for packagers).
#   make install [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=/usr/local]
# CONFIGURATION=debug installs the debug build instead (CI, which has built it already).
PREFIX ?= /usr/local
CONFIGURATION ?= release
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
SWIFT ?= swift

.PHONY: build install uninstall

build:
	$(SWIFT) build -c $(CONFIGURATION) --product news

install: build
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 0755 "$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)/news" "$(BINDIR)/news"
	"$(BINDIR)/news" manual > "$(MANDIR)/news.1"
	"$(BINDIR)/news" completion bash > "$(BASHDIR)/news"
	"$(BINDIR)/news" completion zsh > "$(ZSHDIR)/_news"
	"$(BINDIR)/news" completion fish > "$(FISHDIR)/news.fish"
	chmod 0644 "$(MANDIR)/news.1" "$(BASHDIR)/news" "$(ZSHDIR)/_news" "$(FISHDIR)/news.fish"

uninstall:
	rm -f "$(BINDIR)/news" "$(MANDIR)/news.1" "$(BASHDIR)/news" "$(ZSHDIR)/_news" \
		"$(FISHDIR)/news.fish"
	@# The directories install made, deepest first, each only when nothing else is left in it
	@# (a private prefix ends empty; shared ones with other files stay; the prefix itself stays).
	@for dir in "$(BINDIR)" "$(MANDIR)" "$(dir $(MANDIR))" "$(BASHDIR)" "$(dir $(BASHDIR))" \
		"$(ZSHDIR)" "$(dir $(ZSHDIR))" "$(FISHDIR)" "$(dir $(FISHDIR))" \
		"$(DESTDIR)$(PREFIX)/share"; do \
		rmdir --ignore-fail-on-non-empty "$$dir" 2>/dev/null || true; \
	done
