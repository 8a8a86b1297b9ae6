"""The Datasets page's Streamlit layer: the set (upload, folder, paste), its shape and fields, the
count run off the script thread, and the results per model."""
