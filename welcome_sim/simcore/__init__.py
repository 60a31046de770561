"""The rules: rulesets as data, the compiled game kernel, scoring."""
