"""jiyi.stores.sqlite"""
