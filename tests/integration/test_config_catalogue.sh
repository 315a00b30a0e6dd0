# The compile settings' catalogue (`pt2fuzz configs`) against the installed
# torch: every row this torch should have exists, has a default of the row's
# type, and takes each of the row's values through config.patch
# (tests/integration/config_catalogue.py); every global mode (mode.*) is put
# in force by this torch. A row wrong here would have the worker set a
# setting that is not there, or a value of another type.
source "$(dirname "$0")/lib.sh"
"$PT2FUZZ" configs >"$TMP/configs.txt" || die "pt2fuzz configs failed"
rows=$(grep -vc '^clash ' "$TMP/configs.txt")
[ "$rows" -ge 40 ] || die "only $rows settings in the catalogue"
grep -q '^clash ' "$TMP/configs.txt" || die "no pairs that do not combine listed"
$PY "$ROOT/tests/integration/config_catalogue.py" <"$TMP/configs.txt" >"$TMP/check.txt" 2>"$TMP/err.txt" ||
  { cat "$TMP/check.txt" "$TMP/err.txt"; die "the catalogue disagrees with torch"; }
tail -1 "$TMP/check.txt"
# The check can fail: a row of the wrong type is caught.
sed 's/^inductor.max_fusion_size int /inductor.max_fusion_size bool /' "$TMP/configs.txt" |
  $PY "$ROOT/tests/integration/config_catalogue.py" >"$TMP/bad.txt" 2>&1 && die "a mistyped row passed"
grep -q "inductor.max_fusion_size: the catalogue says bool" "$TMP/bad.txt" || die "no reason given: $(cat "$TMP/bad.txt")"
# A dict naming a pass torch does not have is caught.
sed "s/batch_linear_post_grad/batch_linear_post_grads/" "$TMP/configs.txt" |
  $PY "$ROOT/tests/integration/config_catalogue.py" >"$TMP/bad.txt" 2>&1 && die "a dict of an unknown pass passed"
grep -q "post_grad_fusion_options: \[.batch_linear_post_grads.\] are no passes" "$TMP/bad.txt" || die "no reason given: $(cat "$TMP/bad.txt")"
# A global mode the check does not know is no mode checked.
sed 's/^mode.enable_grad /mode.enable_grads /' "$TMP/configs.txt" |
  $PY "$ROOT/tests/integration/config_catalogue.py" >"$TMP/bad.txt" 2>&1 && die "an unknown mode passed"
grep -q "mode.enable_grads: no check of this mode" "$TMP/bad.txt" || die "no reason given: $(cat "$TMP/bad.txt")"
echo "ok: the settings' catalogue and its global modes agree with torch $TORCH_MINOR"
