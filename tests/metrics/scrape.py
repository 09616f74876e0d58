"""Reads docsd's GET /metrics and prints it as parsed by the Prometheus project's own
Python client (prometheus_client.parser, Debian's python3-prometheus-client), as JSON:
{"families": [{"name", "type", "help"}], "samples": [{"name", "labels", "value"}]}.

Usage: /usr/bin/python3 scrape.py URL [HEADERS_JSON]
Exit 0 with the JSON; 2 with {"status": N} for an answer other than 200; 1 when the
answer is not the text format or does not parse (the parser raises on a malformed line),
or when a sample line did not reach a sample.
"""
import json
import sys
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def main():
    url = sys.argv[1]
    headers = json.loads(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status = response.status
            content_type = response.headers.get("Content-Type", "")
            text = response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        print(json.dumps({"status": error.code}))
        return 2
    if status != 200:
        print(json.dumps({"status": status}))
        return 2
    if not content_type.startswith("text/plain; version=0.0.4"):
        print("unexpected Content-Type " + content_type, file=sys.stderr)
        return 1
    families, samples = [], []
    for family in text_string_to_metric_families(text):
        name = family.name
        # This parser names a counter's family without "_total" (OpenMetrics style).
        if family.type == "counter" and not name.endswith("_total"):
            name += "_total"
        families.append({"name": name, "type": family.type, "help": family.documentation})
        for sample in family.samples:
            samples.append({"name": sample.name, "labels": sample.labels, "value": sample.value})
    lines = [line for line in text.split("\n") if line and not line.startswith("#")]
    if len(lines) != len(samples):
        print("%d sample lines but %d parsed samples" % (len(lines), len(samples)), file=sys.stderr)
        return 1
    print(json.dumps({"families": families, "samples": samples}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
