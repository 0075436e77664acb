import os
DEBUG = False
GITHUB_TOKEN = os.environ["GITHUB_TOKEN"]
AWS_ACCESS_KEY_ID = os.environ.get("AWS_ACCESS_KEY_ID", "")
