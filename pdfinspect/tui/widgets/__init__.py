"""The app's widgets and the rendering helpers they share."""
