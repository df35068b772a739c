print("hls-subtitle-proxy: under construction")
