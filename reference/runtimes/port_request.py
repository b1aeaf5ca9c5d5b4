"""The request a port sends for a generate() call: the spec, written independently of any runtime.

A Python user's temperature, top_k, top_p, min_p and repetition_penalty carry over by name exactly
as passed (an int stays an int, a float a float), invalid values included; do_sample=False sends
temperature 0 (an int: "greedy", whatever temperature was passed); do_sample=True sends nothing;
an argument passed as None is not sent; any other argument (typical_p, ...) has no field and is
listed as ignored. What is not sent takes the runtime's own default.

Shared by make_runtime_fixtures.py (torch env) and mlx_lm_oracle.py (mlx env): standard library only.
"""

SENT = ("temperature", "top_k", "top_p", "min_p", "repetition_penalty")


def port_request(call, names=None):
    """(request, ignored) for the generate() keyword arguments `call`.

    names maps a generate() argument to the runtime's field name (identity by default; mlx-lm's
    make_sampler calls temperature `temp`)."""
    names = names or {n: n for n in SENT}
    request, ignored = {}, []
    for key, value in call.items():
        if key == "do_sample":
            continue
        if key in names:
            if value is not None:
                request[names[key]] = value
        else:
            ignored.append(key)
    if call.get("do_sample") is False:
        request[names["temperature"]] = 0
    return request, ignored
