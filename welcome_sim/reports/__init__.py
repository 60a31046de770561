"""HTML balance reports (jinja2 templates + builder). Empty until the report issue lands."""
