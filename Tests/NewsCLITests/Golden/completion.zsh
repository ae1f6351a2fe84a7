#compdef news
# zsh completion for news. Install: news completion zsh > "${fpath[1]}/_news"

_news() {
  local -a commands
  commands=(
    'headlines:Show the latest top headlines (newsapi.org by default, or articles or bbc).'
    'show:Show one article in full, with its likes and comments.'
    'feed:Show the feed\: every source fetched in parallel, each cached.'
    'sources:List, add, remove, set, import and export the feed'\''s sources.'
    'ignore:List, add and remove the rules that hide items (a killfile).'
    'import:Carry another reader'\''s setup over\: news import newsboat.'
    'sync:Pull every source into the encrypted store (for cron), so reading works offline.'
    'serve:Serve the store to phone apps\: the Google Reader API and Fever, one process.'
    'accounts:List, add, test and remove accounts on your own server (Google Reader, Fever, Miniflux, Nextcloud News, Tiny Tiny RSS, Feedbin).'
    'search:Search the stored articles offline, or all of newsapi.org with --online.'
    'bookmark:Keep articles for good, whatever the retention policy says.'
    'unbookmark:Remove bookmarks.'
    'bookmarks:List bookmarked articles (works offline).'
    'browse:Read full screen\: every list, an article, reload, filter, bookmark, open.'
    'read:Mark articles read (news show and news open do it too).'
    'unread:Mark articles unread again.'
    'open:Open an article'\''s link in the browser (and mark it read).'
    'play:Play an item'\''s audio or video (a podcast episode) with NEWS_PLAYER or mpv.'
    'download:Download items'\'' audio and video (podcast episodes), resumably.'
    'doctor:Check the encrypted store\: paths, key, and whether every file decrypts.'
    'send:Send articles to a command of config.json (a read-later service, a script).'
    'keys:List news browse'\''s keys\: the defaults and config.json'\''s "keys".'
    'completion:Print a shell completion script (bash, zsh or fish).'
    'manual:Print the manual page (roff).'
    'help:Show help for a command.'
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case $words[2] in
    headlines)
      _arguments -s \
        '--from[newsapi (default), articles, bbc.]:<provider>:(newsapi articles bbc)' \
        '--country[Two-letter country code (default\: us, or NEWS_COUNTRY).]:<code>:' \
        '--category[business, entertainment, general, health, science, sports or technology.]:<name>:(business entertainment general health science sports technology)' \
        '(-q --query)'{-q,--query}'[Only headlines matching these words.]:<words>:' \
        '--sources[Comma-separated newsapi.org source ids (not with --country or --category).]:<ids>:' \
        '--page-size[Articles per page, 1 to 100 (default\: 20).]:<n>:' \
        '--page[Page number, 1 or more (default\: 1).]:<n>:' \
        '--limit[Show at most n items.]:<n>:' \
        '--unread[Only the articles not read yet.]' \
        '--offline[Never use the network\: read what is stored (no key needed).]' \
        '--refresh[Fetch now, whatever is stored or cached.]' \
        '--json[Print one JSON document instead of text.]' \
        '--jsonl[Print one JSON object per line (JSON Lines), each as soon as it is ready.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    show)
      _arguments -s \
        '--offline[Never use the network\: read what is stored (no key needed).]' \
        '--refresh[Fetch now, whatever is stored or cached.]' \
        '--full[Fetch the article'\''s page and show the whole story extracted from it (kept).]' \
        '--json[Print one JSON document instead of text.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    feed)
      _arguments -s \
        '--source[Only these sources (comma-separated, e.g. a,b).]:<names>:{compadd -- ${(f)"$(news completion --list sources 2>/dev/null)"}}' \
        '--tag[Only the sources filed under this tag.]:<tag>:{compadd -- ${(f)"$(news completion --list tags 2>/dev/null)"}}' \
        '--limit[Show at most n items.]:<n>:' \
        '--unread[Only the articles not read yet.]' \
        '--new[Only the items new in this run (not in any source'\''s cache before it).]' \
        '--since[Only the items first seen at or after this ISO 8601 time (2026-11-25T08\:00\:00Z), or this long ago (30m, 12h, 2d, 1w).]:<time>:' \
        '--where[The articles this query matches (docs/queries.md).]:<query>:' \
        '--show-ignored[Show the items the ignore rules hide, marked \[ignored\].]' \
        '--offline[Never use the network\: read what is stored (no key needed).]' \
        '--refresh[Fetch now, whatever is stored or cached.]' \
        '--json[Print one JSON document instead of text.]' \
        '--jsonl[Print one JSON object per line (JSON Lines), each as soon as it is ready.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    sources)
      _arguments -s \
        '--json[Print one JSON document instead of text.]' \
        '--tag[Only the sources filed under this tag.]:<tag>:{compadd -- ${(f)"$(news completion --list tags 2>/dev/null)"}}' \
        '--failing[Only the sources failing run after run\: since when, and why.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '--name[The source'\''s name (default\: from the feed'\''s title).]:<name>:' \
        '--ttl[How long its answer stays fresh\: seconds, or 30m, 2h, 1d (default 15m).]:<time>:' \
        '--search[Add a saved search instead\: a source of the stored articles a query matches.]:<query>:' \
        '--exec[Add a source whose feed is what <command> prints (/bin/sh -c; no URL).]:<command>:' \
        '--filter[Pipe the feed at <url> through <command> (/bin/sh -c) before reading it.]:<command>:' \
        '--account[Subscribe on this account'\''s server (any kind but Fever) instead of locally.]:<name>:{compadd -- ${(f)"$(news completion --list accounts 2>/dev/null)"}}' \
        '--hooks[Run the newItem hook for the new subscription'\''s items (it runs for none).]' \
        '--tags[The tags it is filed under (comma-separated; none\: no tags).]:<tags>:' \
        '--max-items[Keep and show at most n items (0\: no limit).]:<n>:' \
        '--feed-title[What OPML exports and news serve'\''s apps call it (""\: its name).]:<title>:' \
        '--full-text[Show its articles'\'' full text, extracted for new items by feed and sync.]' \
        '--hide[Leave it out of the plain feed and browse'\''s home (still synced and searched).]' \
        '--items[Read the page as a feed\: each element it selects an item.]:<selector>:' \
        '--title[An item'\''s title (default\: its first heading or link).]:<selector>:' \
        '--link[An item'\''s link (default\: its first <a href>; @attr reads one).]:<selector>:' \
        '--date[An item'\''s date (time@datetime; default\: when first seen).]:<selector>:' \
        '--content[An item'\''s text.]:<selector>:' \
        '--date-format[The dates'\'' pattern when not RFC 3339 or 822 (dd.MM.yyyy).]:<pattern>:' \
        '--dry-run[With --items\: print the items the page gives, and add nothing.]' \
        '--forget[Forget its stored articles too (its bookmarks and read marks stay).]' \
        '--url[Where it is fetched from now (a feed that moved).]:<url>:' \
        '--enable[Fetch it with the others again.]' \
        '--disable[Leave it out of feed, sync and browse (--source still names it).]' \
        '--no-full-text[Show what its feed carries again.]' \
        '--show[Show it in the plain feed and browse'\''s home again.]' \
        '*:argument:{if (( CURRENT == 4 )) && [[ $words[3] == (remove|set) ]]; then compadd -- ${(f)"$(news completion --list sources 2>/dev/null)"}; else compadd -- add remove set import export; fi}'
      ;;
    ignore)
      _arguments -s \
        '--json[Print one JSON document instead of text.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '--in[Where the rule looks\: title (the default), author, link or text.]:<field>:(title author link text)' \
        '--source[Only this provider'\''s or feed source'\''s items.]:<name>:{compadd -- ${(f)"$(news completion --list sources 2>/dev/null)"}}' \
        '--regex[The pattern is a regular expression (case-insensitive), not words.]' \
        '--query[A rule that is a query of the language (docs/queries.md).]:<query>:' \
        '*:argument:{compadd -- list add remove}'
      ;;
    import)
      _arguments -s \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '--dry-run[Say how many would change, and change nothing.]' \
        '--json[Print one JSON document instead of text.]' \
        '*:argument:{compadd -- newsboat}'
      ;;
    sync)
      _arguments -s \
        '--wait[Wait for another running sync instead of exiting with 75.]' \
        '--account[Sync only this account (news accounts lists them).]:<name>:{compadd -- ${(f)"$(news completion --list accounts 2>/dev/null)"}}' \
        '--quiet[Print nothing when every source succeeded.]' \
        '--json[Print one JSON document instead of text.]' \
        '--exec[Run <command> (through /bin/sh -c) once per item new in this sync, its JSON on stdin.]:<command>:' \
        '--refresh[Fetch now, whatever is stored or cached.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    serve)
      _arguments -s \
        '--listen[Where to listen (default 127.0.0.1\:8080).]:<address\:port>:' \
        '--refresh[Run what news sync runs every interval (at least 1m)\: 30m, 1h.]:<interval>:' \
        '--quiet[Log only the requests that failed.]' \
        '--set-password[Set the password apps sign in with (asked, or read from stdin).]' \
        '--user[With --set-password\: the user name apps sign in with.]:<name>:' \
        '--fever[With --set-password\: keep the Fever key too (Fever'\''s MD5 of user\:password).]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    accounts)
      _arguments -s \
        '--json[Print one JSON document instead of text.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '--greader[The account'\''s Google Reader API URL (FreshRSS\: https\://host/api/greader.php).]:<url>:' \
        '--fever[The account'\''s Fever API URL (Coldsweat\: https\://host/fever).]:<url>:' \
        '--miniflux[The account'\''s Miniflux URL (https\://host/, its API under /v1/).]:<url>:' \
        '--nextcloud[The account'\''s Nextcloud URL (https\://host/, News'\''s API under /index.php/apps/news/).]:<url>:' \
        '--ttrss[The account'\''s Tiny Tiny RSS URL (https\://host/tt-rss/, its API under /api/).]:<url>:' \
        '--feedbin[A Feedbin account (https\://api.feedbin.com/v2/; --url for another server).]' \
        '--url[With --feedbin\: the API'\''s URL of a Feedbin server of your own.]:<url>:' \
        '--user[The account'\''s user name (Feedbin\: the e-mail address; Miniflux\: none with an API key).]:<name>:' \
        '--password-file[Read the password from this file (its first line).]:<file>:' \
        '--password-env[Read the password from this environment variable.]:<variable>:' \
        '*:argument:{if (( CURRENT == 4 )) && [[ $words[3] == (test|remove) ]]; then compadd -- ${(f)"$(news completion --list accounts 2>/dev/null)"}; else compadd -- list add test remove; fi}'
      ;;
    search)
      _arguments -s \
        '--online[Search newsapi.org (/v2/everything) instead of the store.]' \
        '--language[Two-letter language code, e.g. fr (or NEWS_LANGUAGE).]:<code>:' \
        '--sort-by[relevancy, popularity or publishedAt.]:<order>:(relevancy popularity publishedAt)' \
        '--from[Oldest article, ISO 8601 date or date-time.]:<date>:' \
        '--to[Newest article, ISO 8601 date or date-time.]:<date>:' \
        '--domains[Only these domains, comma-separated.]:<list>:' \
        '--exclude-domains[Not these domains, comma-separated.]:<list>:' \
        '--search-in[Any of title,description,content.]:<fields>:(title description content)' \
        '--page-size[Articles per page, 1 to 100 (default\: 20).]:<n>:' \
        '--page[Page number, 1 or more (default\: 1).]:<n>:' \
        '--limit[Show at most n items.]:<n>:' \
        '--unread[Only the articles not read yet.]' \
        '--json[Print one JSON document instead of text.]' \
        '--jsonl[Print one JSON object per line (JSON Lines), each as soon as it is ready.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    bookmark)
      _arguments -s \
        '--where[The articles this query matches (docs/queries.md).]:<query>:' \
        '--dry-run[Say how many would change, and change nothing.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    unbookmark)
      _arguments -s \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    bookmarks)
      _arguments -s \
        '--limit[Show at most n items.]:<n>:' \
        '--unread[Only the articles not read yet.]' \
        '--json[Print one JSON document instead of text.]' \
        '--jsonl[Print one JSON object per line (JSON Lines), each as soon as it is ready.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    browse)
      _arguments -s \
        '--from[newsapi (default), articles, bbc.]:<provider>:(newsapi articles bbc)' \
        '--source[Start on this feed source.]:<name>:{compadd -- ${(f)"$(news completion --list sources 2>/dev/null)"}}' \
        '--unread[Only the articles not read yet.]' \
        '--offline[Never use the network\: read what is stored (no key needed).]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    read)
      _arguments -s \
        '--all[Every stored article (of --source, when given).]' \
        '--where[The articles this query matches (docs/queries.md).]:<query>:' \
        '--older-than[Every stored article published (else first seen) longer ago than this\: 7d, 12h, 2w.]:<age>:' \
        '--dry-run[Say how many would change, and change nothing.]' \
        '--source[Only the articles of this provider or feed source.]:<name>:{compadd -- ${(f)"$(news completion --list sources 2>/dev/null)"}}' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    unread)
      _arguments -s \
        '--all[Every stored article (of --source, when given).]' \
        '--where[The articles this query matches (docs/queries.md).]:<query>:' \
        '--dry-run[Say how many would change, and change nothing.]' \
        '--source[Only the articles of this provider or feed source.]:<name>:{compadd -- ${(f)"$(news completion --list sources 2>/dev/null)"}}' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    open)
      _arguments -s \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    play)
      _arguments -s \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    download)
      _arguments -s \
        '--new[Only files never downloaded before (not again if their file was deleted).]' \
        '--source[Without ids\: the newest items of this source (with --limit).]:<name>:{compadd -- ${(f)"$(news completion --list sources 2>/dev/null)"}}' \
        '--limit[Without ids\: this many newest items a source (default 5).]:<n>:' \
        '--dir[Into this directory instead of NEWS_DOWNLOAD_DIR.]:<dir>:' \
        '--json[Print one JSON document instead of text.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    doctor)
      _arguments -s \
        '--json[Print one JSON document instead of text.]' \
        '--repair[Drop article segments that no longer read and remove damaged listings and caches.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    send)
      _arguments -s \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    keys)
      _arguments -s \
        '--json[Print one JSON document instead of text.]' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    completion)
      _arguments -s \
        '--list[Print the names the scripts complete, one a line\: sources, tags or accounts.]:<names>:(sources tags accounts)' \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:{compadd -- bash zsh fish}'
      ;;
    manual)
      _arguments -s \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:'
      ;;
    help)
      _arguments -s \
        '(-h --help)'{-h,--help}'[Show help for this command.]' \
        '*:argument:{compadd -- headlines show feed sources ignore import sync serve accounts search bookmark unbookmark bookmarks browse read unread open play download doctor send keys completion manual help}'
      ;;
  esac
}

_news "$@"
