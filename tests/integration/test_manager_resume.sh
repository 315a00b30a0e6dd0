# A campaign of `--engine manager` survives kill -9 as the fork engine's
# does: test_campaign_resume.sh's campaign and checks (corpus, findings, an
# interrupted merge's inputs, the stats and the learned state kept and
# continued; nothing of the killed runner left running), with the manager's
# persistent slots in place of libFuzzer's jobs.
ENGINE=manager
source "$(dirname "$0")/test_campaign_resume.sh"
