# bash completion for news. Install: news completion bash > /etc/bash_completion.d/news
# (or source it from ~/.bashrc).
_news() {
  local cur prev
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "headlines show feed sources ignore import sync serve accounts search bookmark unbookmark bookmarks browse read unread open play download doctor send keys completion manual help --help --version" -- "$cur"))
    return
  fi
  case "${COMP_WORDS[1]}" in
    headlines)
      case "$prev" in
        --from) COMPREPLY=($(compgen -W "newsapi articles bbc" -- "$cur")); return ;;
        --country) return ;;
        --category) COMPREPLY=($(compgen -W "business entertainment general health science sports technology" -- "$cur")); return ;;
        --query|-q) return ;;
        --sources) return ;;
        --page-size) return ;;
        --page) return ;;
        --limit) return ;;
      esac
      COMPREPLY=($(compgen -W "--from --country --category --query --sources --page-size --page --limit --unread --offline --refresh --json --jsonl --help" -- "$cur")) ;;
    show)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--offline --refresh --full --json --help" -- "$cur")) ;;
    feed)
      case "$prev" in
        --source) COMPREPLY=($(compgen -W "$(news completion --list sources 2>/dev/null)" -- "$cur")); return ;;
        --tag) COMPREPLY=($(compgen -W "$(news completion --list tags 2>/dev/null)" -- "$cur")); return ;;
        --limit) return ;;
        --since) return ;;
        --where) return ;;
      esac
      COMPREPLY=($(compgen -W "--source --tag --limit --unread --new --since --where --show-ignored --offline --refresh --json --jsonl --help" -- "$cur")) ;;
    sources)
      case "$prev" in
        --tag) COMPREPLY=($(compgen -W "$(news completion --list tags 2>/dev/null)" -- "$cur")); return ;;
        --name) return ;;
        --ttl) return ;;
        --search) return ;;
        --exec) return ;;
        --filter) return ;;
        --account) COMPREPLY=($(compgen -W "$(news completion --list accounts 2>/dev/null)" -- "$cur")); return ;;
        --tags) return ;;
        --max-items) return ;;
        --feed-title) return ;;
        --items) return ;;
        --title) return ;;
        --link) return ;;
        --date) return ;;
        --content) return ;;
        --date-format) return ;;
        --url) return ;;
      esac
      if [[ $COMP_CWORD -eq 3 && $cur != -* ]] && [[ ${COMP_WORDS[2]} == remove || ${COMP_WORDS[2]} == set ]]; then
        COMPREPLY=($(compgen -W "$(news completion --list sources 2>/dev/null)" -- "$cur")); return
      fi
      COMPREPLY=($(compgen -W "--json --tag --failing --help --name --ttl --search --exec --filter --account --hooks --tags --max-items --feed-title --full-text --hide --items --title --link --date --content --date-format --dry-run --forget --url --enable --disable --no-full-text --show add remove set import export" -- "$cur")) ;;
    ignore)
      case "$prev" in
        --in) COMPREPLY=($(compgen -W "title author link text" -- "$cur")); return ;;
        --source) COMPREPLY=($(compgen -W "$(news completion --list sources 2>/dev/null)" -- "$cur")); return ;;
        --query) return ;;
      esac
      COMPREPLY=($(compgen -W "--json --help --in --source --regex --query list add remove" -- "$cur")) ;;
    import)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--help --dry-run --json newsboat" -- "$cur")) ;;
    sync)
      case "$prev" in
        --account) COMPREPLY=($(compgen -W "$(news completion --list accounts 2>/dev/null)" -- "$cur")); return ;;
        --exec) return ;;
      esac
      COMPREPLY=($(compgen -W "--wait --account --quiet --json --exec --refresh --help" -- "$cur")) ;;
    serve)
      case "$prev" in
        --listen) return ;;
        --refresh) return ;;
        --user) return ;;
      esac
      COMPREPLY=($(compgen -W "--listen --refresh --quiet --set-password --user --fever --help" -- "$cur")) ;;
    accounts)
      case "$prev" in
        --greader) return ;;
        --fever) return ;;
        --miniflux) return ;;
        --nextcloud) return ;;
        --ttrss) return ;;
        --url) return ;;
        --user) return ;;
        --password-file) return ;;
        --password-env) return ;;
      esac
      if [[ $COMP_CWORD -eq 3 && $cur != -* ]] && [[ ${COMP_WORDS[2]} == test || ${COMP_WORDS[2]} == remove ]]; then
        COMPREPLY=($(compgen -W "$(news completion --list accounts 2>/dev/null)" -- "$cur")); return
      fi
      COMPREPLY=($(compgen -W "--json --help --greader --fever --miniflux --nextcloud --ttrss --feedbin --url --user --password-file --password-env list add test remove" -- "$cur")) ;;
    search)
      case "$prev" in
        --language) return ;;
        --sort-by) COMPREPLY=($(compgen -W "relevancy popularity publishedAt" -- "$cur")); return ;;
        --from) return ;;
        --to) return ;;
        --domains) return ;;
        --exclude-domains) return ;;
        --search-in) COMPREPLY=($(compgen -W "title description content" -- "$cur")); return ;;
        --page-size) return ;;
        --page) return ;;
        --limit) return ;;
      esac
      COMPREPLY=($(compgen -W "--online --language --sort-by --from --to --domains --exclude-domains --search-in --page-size --page --limit --unread --json --jsonl --help" -- "$cur")) ;;
    bookmark)
      case "$prev" in
        --where) return ;;
      esac
      COMPREPLY=($(compgen -W "--where --dry-run --help" -- "$cur")) ;;
    unbookmark)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
    bookmarks)
      case "$prev" in
        --limit) return ;;
      esac
      COMPREPLY=($(compgen -W "--limit --unread --json --jsonl --help" -- "$cur")) ;;
    browse)
      case "$prev" in
        --from) COMPREPLY=($(compgen -W "newsapi articles bbc" -- "$cur")); return ;;
        --source) COMPREPLY=($(compgen -W "$(news completion --list sources 2>/dev/null)" -- "$cur")); return ;;
      esac
      COMPREPLY=($(compgen -W "--from --source --unread --offline --help" -- "$cur")) ;;
    read)
      case "$prev" in
        --where) return ;;
        --older-than) return ;;
        --source) COMPREPLY=($(compgen -W "$(news completion --list sources 2>/dev/null)" -- "$cur")); return ;;
      esac
      COMPREPLY=($(compgen -W "--all --where --older-than --dry-run --source --help" -- "$cur")) ;;
    unread)
      case "$prev" in
        --where) return ;;
        --source) COMPREPLY=($(compgen -W "$(news completion --list sources 2>/dev/null)" -- "$cur")); return ;;
      esac
      COMPREPLY=($(compgen -W "--all --where --dry-run --source --help" -- "$cur")) ;;
    open)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
    play)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
    download)
      case "$prev" in
        --source) COMPREPLY=($(compgen -W "$(news completion --list sources 2>/dev/null)" -- "$cur")); return ;;
        --limit) return ;;
        --dir) return ;;
      esac
      COMPREPLY=($(compgen -W "--new --source --limit --dir --json --help" -- "$cur")) ;;
    doctor)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--json --repair --help" -- "$cur")) ;;
    send)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
    keys)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--json --help" -- "$cur")) ;;
    completion)
      case "$prev" in
        --list) COMPREPLY=($(compgen -W "sources tags accounts" -- "$cur")); return ;;
      esac
      COMPREPLY=($(compgen -W "--list --help bash zsh fish" -- "$cur")) ;;
    manual)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
    help)
      case "$prev" in
      esac
      COMPREPLY=($(compgen -W "--help headlines show feed sources ignore import sync serve accounts search bookmark unbookmark bookmarks browse read unread open play download doctor send keys completion manual help" -- "$cur")) ;;
  esac
}
complete -F _news news
